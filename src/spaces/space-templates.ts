/**
 * What fills a new space from a starter template (`template` on createSpace):
 * the templates domain, which writes content as the change requests do and so
 * sits above spaces, provides it through the context (app.ts).
 */
export interface SpaceTemplateFiller {
  /** Whether a built-in template has this id: checked before the space is made. */
  has(templateId: string): boolean;
  /** Writes the template's pages into the new space as one revision of it. */
  fill(target: { organizationId: string; spaceId: string; userId: string }, templateId: string): Promise<void>;
}

declare module '../context.js' {
  interface Context {
    spaceTemplates?: SpaceTemplateFiller;
  }
}
