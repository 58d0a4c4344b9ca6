import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../access/auth.js';
import { ApiError } from '../core/errors.js';
import { Emoji, IdParam } from '../core/schemas.js';
import type { JSONDocument } from '../document/types.js';
import { MAX_MARKDOWN_LENGTH } from '../change-requests/schemas.js';
import { themeOf } from '../reader/http.js';
import { editorPage, type EditorView } from './edit-pages.js';
import { changeRequestAddress } from './change-request-addresses.js';
import { EDITOR_JS, EDITOR_JS_ETAG } from './editor-script.js';
import { loadMarkdownEditor } from './markdown-editor-asset.js';
import { holdsMergeMarks, mergeWithSaved } from './page-merge.js';
import { SHOWN_PARTS, shownField, type PageLook } from './page-look.js';
import { sendPrepared } from '../core/replies.js';
import {
  addFile,
  addPage,
  asEdit,
  changeRequestToEdit,
  deletePage,
  movePage,
  pageDraft,
  savePage,
  changeRequestTree,
  type PageDraft,
  type PageEdit,
} from './page-editing.js';
import { referencedFiles } from '../reader/page-content.js';
import { documentReferences } from '../reader/references.js';
import { appHome, formCaller, sessionCaller } from './session.js';
import { sendAppAnswer as send } from './shell.js';

const hidden = { hide: true } as const;
const EditParams = Type.Object({ organizationId: IdParam, spaceId: IdParam, changeRequest: IdParam, pageId: IdParam });
const Base = Type.String({ pattern: '^[0-9a-f]{64}$' });
const Title = Type.String({ minLength: 1, maxLength: 255 });
const PageFields = {
  title: Title,
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  // A checkbox: sent when ticked, absent when not.
  hidden: Type.Optional(Type.Literal('on')),
  markdown: Type.String({ maxLength: MAX_MARKDOWN_LENGTH }),
  base: Base,
  // The change request's revision the writer's version started from, for a merge with one saved since.
  from: Type.Optional(IdParam),
  // Sent by a form that shows the page's look (emoji, icon, layout): without it, those stay as they are.
  look: Type.Optional(Type.Literal('1')),
  // The content write takes what it is given: the form checks it as the API's routes do.
  emoji: Type.Optional(Type.Union([Emoji, Type.Literal('')])),
  icon: Type.Optional(Type.String({ maxLength: 50, pattern: '^[a-z0-9-]*$' })),
  width: Type.Optional(Type.Union([Type.Literal('default'), Type.Literal('wide')])),
  // Checkboxes, each sent when ticked: which parts of the page show.
  ...Object.fromEntries(SHOWN_PARTS.map((part) => [shownField(part), Type.Optional(Type.Literal('on'))])),
};
const EditForm = Type.Object({ ...PageFields, action: Type.Union([Type.Literal('save'), Type.Literal('preview')]) });
const AutosaveForm = Type.Object(PageFields);

/** The writer's edit from the form's fields. */
function editOf(body: {
  hidden?: 'on' | undefined;
  description?: string | undefined;
  title: string;
  markdown: string;
  base: string;
  from?: string | undefined;
  look?: '1' | undefined;
  emoji?: string | undefined;
  icon?: string | undefined;
  width?: 'default' | 'wide' | undefined;
}): PageEdit {
  const { hidden: hide, description, title, markdown, base, from } = body;
  const fields: Record<string, unknown> = body;
  const look: PageLook | undefined =
    body.look === '1'
      ? {
          emoji: body.emoji?.trim() ?? '',
          icon: body.icon ?? '',
          width: body.width ?? 'default',
          shown: Object.fromEntries(
            SHOWN_PARTS.map((part) => [part, fields[shownField(part)] === 'on']),
          ) as PageLook['shown'],
        }
      : undefined;
  return { title, markdown, base, from, look, description: description ?? '', hidden: hide === 'on' };
}

/** A save of markdown that still holds a merge's marks is refused: the writer chooses between both versions first. */
function refuseMergeMarks(edit: PageEdit): void {
  if (holdsMergeMarks(edit.markdown)) {
    throw new ApiError(
      400,
      'the content still holds both versions of lines you and another writer changed, between <<<<<<< yours and >>>>>>> theirs: keep what should stay and remove the marks',
    );
  }
}
/** The base64 of the largest file a page takes (1 MiB), and its form, `+`, `/` and `=` percent-encoded. */
const UPLOAD_BASE64_LENGTH = Math.ceil((1024 * 1024) / 3) * 4;
const UPLOAD_BODY_LIMIT = UPLOAD_BASE64_LENGTH * 3 + 4096;
/** A form of the largest page, every character of it percent-encoded as three. */
const EDIT_BODY_LIMIT = MAX_MARKDOWN_LENGTH * 3 + 16 * 1024;

/**
 * Writing a page in the browser, in a change request: "Edit" on a page of
 * the space opens the writer's change request (or continues theirs), where
 * the page's editor previews and saves. A save is a content write on the
 * revision the page was compared on, so a page another writer saved since
 * is shown beside the writer's own instead of being overwritten.
 */
export const editRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const context = () => app.context;

  app.post(
    '/app/o/:organizationId/s/:spaceId/~/edit/:pageId',
    { schema: { ...hidden, params: Type.Object({ organizationId: IdParam, spaceId: IdParam, pageId: IdParam }) } },
    async (request, reply) => {
      const caller = await writer(request, reply);
      if (!caller) return reply.redirect(appHome(context()), 303);
      const { organizationId, spaceId, pageId } = request.params;
      const number = await changeRequestToEdit(context(), caller, organizationId, spaceId, pageId);
      return reply.redirect(
        changeRequestAddress(context(), { organizationId, spaceId, changeRequest: number }, 'edit', pageId),
        303,
      );
    },
  );

  app.get(
    '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/edit/:pageId',
    { schema: { ...hidden, params: EditParams } },
    async (request, reply) => {
      const caller = await sessionCaller(app, request, reply, 'space:write');
      if (!caller) return reply.redirect(`${appHome(context())}?next=${encodeURIComponent(request.url)}`, 302);
      const draft = await pageDraft(context(), caller, request.params);
      return send(reply, editorPage(context(), caller, themeOf(request), draft, asEdit(draft), {}));
    },
  );

  app.post(
    '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/edit/:pageId',
    { bodyLimit: EDIT_BODY_LIMIT, schema: { ...hidden, params: EditParams, body: EditForm } },
    async (request, reply) => {
      const caller = await writer(request, reply);
      if (!caller) return reply.redirect(appHome(context()), 303);
      const address = request.params;
      const { action } = request.body;
      const edit = editOf(request.body);
      const theme = themeOf(request);
      if (action === 'preview') {
        const draft = await pageDraft(context(), caller, address);
        return send(reply, editorPage(context(), caller, theme, draft, edit, await preview(draft, edit.markdown)));
      }
      let saved;
      try {
        refuseMergeMarks(edit);
        saved = await savePage(context(), caller, address, edit);
      } catch (error) {
        // A refused write (markdown the service cannot store) changes nothing: the writer's text stays in the editor.
        if (!(error instanceof ApiError) || error.statusCode >= 500 || error.statusCode === 404) throw error;
        const draft = await pageDraft(context(), caller, address);
        const answer = editorPage(context(), caller, theme, draft, edit, { error: `Not saved: ${error.message}` });
        return send(reply, answer, 200);
      }
      if (saved.saved) {
        const draft = await pageDraft(context(), caller, address);
        return send(
          reply,
          editorPage(context(), caller, theme, draft, asEdit(draft), {
            notice: `Saved in change request #${saved.changeRequest}.`,
          }),
        );
      }
      // Lost a race: the writer's version, merged with the one saved since where it can be, stays in the
      // editor on the new base, beside the one saved since.
      const theirs = saved.current;
      const merged = await mergeWithSaved(context(), address, edit, theirs);
      const mine: PageEdit = {
        ...edit,
        markdown: merged?.text ?? edit.markdown,
        base: theirs.base,
        from: theirs.revisionId,
      };
      const view = { theirs, ...(merged ? { merged: { clashes: merged.clashes } } : {}) };
      return send(reply, editorPage(context(), caller, theme, theirs, mine, view), 200);
    },
  );

  app.post(
    '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/delete/:pageId',
    { schema: { ...hidden, params: EditParams, body: Type.Object({ base: Base }) } },
    async (request, reply) => {
      const caller = await writer(request, reply);
      if (!caller) return reply.redirect(appHome(context()), 303);
      const address = request.params;
      const draft = await pageDraft(context(), caller, address);
      const deleted = await deletePage(context(), caller, address, request.body.base);
      if (!deleted.saved) {
        const answer = editorPage(context(), caller, themeOf(request), deleted.current, asEdit(deleted.current), {
          theirs: deleted.current,
          error:
            'Not deleted: the page changed since you opened it. Look at it again, then delete it if you still mean to.',
        });
        return send(reply, answer, 200);
      }
      return reply.redirect(
        changeRequestAddress(context(), { ...address, changeRequest: draft.changeRequest.number }),
        303,
      );
    },
  );

  app.post(
    '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/new/:pageId',
    {
      schema: {
        ...hidden,
        params: EditParams,
        body: Type.Object({ title: Title, where: Type.Union([Type.Literal('below'), Type.Literal('after')]) }),
      },
    },
    async (request, reply) => {
      const caller = await writer(request, reply);
      if (!caller) return reply.redirect(appHome(context()), 303);
      const draft = await pageDraft(context(), caller, request.params);
      const pageId = await addPage(context(), caller, draft, {
        title: request.body.title,
        below: request.body.where === 'below',
      });
      return reply.redirect(
        changeRequestAddress(
          context(),
          { ...request.params, changeRequest: draft.changeRequest.number },
          'edit',
          pageId,
        ),
        303,
      );
    },
  );

  app.post(
    '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/move/:pageId',
    {
      schema: {
        ...hidden,
        params: EditParams,
        body: Type.Object({
          // Empty: the top level.
          target: Type.Union([IdParam, Type.Literal('')]),
          where: Type.Union([Type.Literal('inside'), Type.Literal('after'), Type.Literal('before')]),
        }),
      },
    },
    async (request, reply) => {
      const caller = await writer(request, reply);
      if (!caller) return reply.redirect(appHome(context()), 303);
      const draft = await pageDraft(context(), caller, request.params);
      const { target, where } = request.body;
      try {
        await movePage(context(), caller, draft, { target: target || null, where });
      } catch (error) {
        // A place the page cannot go (a computed page, a sibling with its slug) moves nothing.
        if (!(error instanceof ApiError) || error.statusCode >= 500 || error.statusCode === 404) throw error;
        return send(
          reply,
          editorPage(context(), caller, themeOf(request), draft, asEdit(draft), {
            error: `Not moved: ${error.message}`,
          }),
        );
      }
      const moved = await pageDraft(context(), caller, request.params);
      return send(reply, editorPage(context(), caller, themeOf(request), moved, asEdit(moved), { notice: 'Moved.' }));
    },
  );

  // The editor's script saves a draft in progress into the change request, as Save does, when the writer pauses.
  app.post(
    '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/autosave/:pageId',
    { bodyLimit: EDIT_BODY_LIMIT, schema: { ...hidden, params: EditParams, body: AutosaveForm } },
    async (request, reply) => {
      const caller = await writer(request, reply);
      if (!caller) return reply.code(401).send({ saved: false, message: 'Sign in again to save.' });
      void reply.header('cache-control', 'no-store');
      let saved;
      try {
        const edit = editOf(request.body);
        refuseMergeMarks(edit);
        saved = await savePage(context(), caller, request.params, edit);
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode >= 500 || error.statusCode === 404) throw error;
        return reply.code(error.statusCode).send({ saved: false, message: `Not saved: ${error.message}` });
      }
      if (!saved.saved) {
        return reply.code(409).send({
          saved: false,
          message: 'Someone else saved this page since: press Save to see both versions and merge them.',
        });
      }
      const draft = await pageDraft(context(), caller, request.params);
      return { saved: true, base: draft.base, from: draft.revisionId, at: app.clock.now().toISOString() };
    },
  );

  // A file pasted or dropped in the editor, sent by its script: stored in the change request, answered with its markdown.
  app.post(
    '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/upload/:pageId',
    {
      bodyLimit: UPLOAD_BODY_LIMIT,
      schema: {
        ...hidden,
        params: EditParams,
        body: Type.Object({
          name: Type.String({ minLength: 1, maxLength: 256, pattern: '^[^/\\\\]+$' }),
          contentType: Type.String({ minLength: 3, maxLength: 255, pattern: '^[\\w.+-]+/[\\w.+-]+$' }),
          base64: Type.String({ minLength: 1, maxLength: UPLOAD_BASE64_LENGTH, pattern: '^[A-Za-z0-9+/=]*$' }),
        }),
      },
    },
    async (request, reply) => {
      const caller = await writer(request, reply);
      if (!caller) return reply.code(401).send({ message: 'Sign in again to add files.' });
      const draft = await pageDraft(context(), caller, request.params);
      try {
        return { markdown: await addFile(context(), caller, draft, request.body) };
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
        return reply.code(error.statusCode).send({ message: `Not added: ${error.message}` });
      }
    },
  );

  // The editor's writing surface (CodeMirror), bundled by the build; without it the editor is the plain field.
  const markdownEditor = await loadMarkdownEditor();
  app.get('/app/~/markdown-editor.js', { schema: hidden }, async (request, reply) => {
    if (!markdownEditor) throw new ApiError(404, 'This service was built without the markdown editor’s bundle');
    void reply.header('cache-control', 'public, max-age=31536000, immutable');
    const { body, gzip, etag } = markdownEditor;
    return sendPrepared(request, reply, 'text/javascript; charset=utf-8', body, gzip, etag);
  });

  app.get('/app/~/editor.js', { schema: hidden }, async (request, reply) => {
    void reply.header('etag', EDITOR_JS_ETAG).header('cache-control', 'public, max-age=31536000, immutable');
    if (request.headers['if-none-match'] === EDITOR_JS_ETAG) return reply.code(304).send();
    return reply.type('text/javascript; charset=utf-8').send(EDITOR_JS);
  });

  // The live preview the editor's script asks for as the writer types: the rendered page alone, saving nothing.
  app.post(
    '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/preview/:pageId',
    {
      bodyLimit: EDIT_BODY_LIMIT,
      schema: {
        ...hidden,
        params: EditParams,
        body: Type.Object({ markdown: Type.String({ maxLength: MAX_MARKDOWN_LENGTH }) }),
      },
    },
    async (request, reply) => {
      const caller = await writer(request, reply);
      if (!caller) return reply.code(401).type('text/plain; charset=utf-8').send('Sign in again to preview.');
      const draft = await pageDraft(context(), caller, request.params);
      const view = await preview(draft, request.body.markdown);
      void reply.header('content-security-policy', "default-src 'none'").header('cache-control', 'no-store');
      if (view.preview === undefined) return reply.code(400).type('text/plain; charset=utf-8').send(view.error);
      return reply.type('text/html; charset=utf-8').send(view.preview);
    },
  );

  /** The caller of a form that writes: posted from this service's pages, by a session that may write spaces. */
  function writer(request: FastifyRequest, reply: FastifyReply): Promise<Caller | undefined> {
    return formCaller(app, request, reply, 'space:write', 'Edit from this service’s own pages');
  }

  /**
   * The markdown as the reader will show it, rendered off the event loop, with
   * the change request's files it names (an image just pasted); or why it cannot be.
   */
  async function preview(draft: PageDraft, markdown: string): Promise<EditorView> {
    try {
      const document = JSON.parse(await context().conversions.toDocumentJson(markdown, 'the page')) as JSONDocument;
      const files = referencedFiles(
        context(),
        await changeRequestTree(context(), draft),
        documentReferences(document).files,
        app.clock.now(),
      );
      const rendered = await context().conversions.toHtml({ document, pages: {}, files }, 'the page');
      return { preview: rendered.html };
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
      return { error: `No preview: ${error.message}` };
    }
  }
};
