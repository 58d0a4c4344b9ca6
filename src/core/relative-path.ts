/**
 * `relative` read from the folder `base` (both `/`-separated, as Git and URLs
 * write paths): its `.` and empty segments dropped, each `..` taking one
 * folder off; undefined when the `..` segments lead above the top.
 */
export function joinPath(base: string, relative: string): string | undefined {
  const segments = base ? base.split('/') : [];
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  return segments.join('/');
}
