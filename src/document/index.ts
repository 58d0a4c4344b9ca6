/**
 * Page content in two forms: the markdown it is stored as, and GitBook's JSON
 * document model the API also speaks. Conversions go through a real markdown
 * parser (mdast), never through regular expressions.
 */
export {
  evaluateExpressions,
  MAX_EVALUATED_LENGTH,
  type EvaluationBound,
  type ExpressionVariables,
  type VariableValue,
} from './evaluate.js';
export { splitFrontmatter, type Frontmatter } from './frontmatter.js';
export { markdownToDocument } from './from-markdown.js';
export { splitLeadingHeading } from './leading-heading.js';
export { collectReferences, type References } from './collect-references.js';
export {
  rewriteUrls,
  spliceUrls,
  urlDestinations,
  type UrlDestination,
  type UrlKind,
  type UrlRewrite,
} from './rewrite-urls.js';
export { checkDocumentBounds, checkMarkdownBounds, DOCUMENT_LIMITS, MARKDOWN_LIMITS } from './bounds.js';
export { documentToMarkdown } from './to-markdown.js';
export type * from './types.js';
export { blockQuoting, findNodeByKey, nodeText } from './find-node.js';
