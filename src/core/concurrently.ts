/** Runs `work` on every item, at most `lanes` at a time; the first failure fails the whole. */
export async function forEachConcurrently<T>(
  items: readonly T[],
  lanes: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, lane));
}
