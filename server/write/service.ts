// The write API: POST, PUT and DELETE on the Document endpoint, applied to the source corpus.
// A write checks its credentials and parameters, reads and checks the body, splices the
// source, checks the new citation structure, validates the whole new document when a schema
// applies, writes the file atomically, rebuilds that document's responses (and its
// collections when what they say of it changed), and answers. Writes to one document are
// serialised; commits hold the document's lock so its readers see old or new, never a mix.

import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { corpusName } from "../../builder/build/document-output.js";
import type { DocumentLocks } from "../../builder/build/locks.js";
import { staleAfter, type Workspace } from "../../builder/build/workspace.js";
import type { ResourceNode } from "../../builder/catalog.js";
import { CitedText } from "../../builder/citation/cited-text.js";
import { indexDocument, XmlSyntaxError } from "../../builder/citation/indexer.js";
import { DtsError } from "../../builder/error.js";
import { teiHeaderFromText } from "../../builder/metadata/tei-header.js";
import { renderDocument, unreadableText } from "../../builder/render/document.js";
import { noDocument } from "../../builder/render/messages.js";
import { type DtsResponse, renderError, xmlError } from "../../builder/render/response.js";
import type { DocumentMethod } from "../../builder/render/service.js";
import type { Site } from "../../builder/site.js";
import { collectionUrl, documentUrl, linkHeader, navigationUrl } from "../../builder/urls.js";
import { DEFAULT_MAX_BODY, TEI_TYPE } from "../../builder/wire.js";
import { logValue } from "../log-value.js";
import type { TreeReader } from "../reader.js";
import { toResponse } from "../to-response.js";
import { WriteAdmission } from "./admission.js";
import { writeFileAtomic } from "./atomic.js";
import { CLIENT_ABORTED, parseFragmentBody, parseWholeBody, readBody } from "./body.js";
import { forgetStale } from "./forget.js";
import { checkIfMatch } from "./preconditions.js";
import type { SchemaProblem, SchemaValidators } from "./schema.js";
import { bodyLine, type Indexed, type Plan, planCreate, planDelete, planInsert, planPut } from "./splice.js";

export const WRITE_METHODS: DocumentMethod[] = ["POST", "PUT", "DELETE"];

export interface WriteOptions {
  site: Site;
  reader: TreeReader;
  /** The corpus and its tree; without it, every write is refused (403) with how to enable writes. */
  workspace?: Workspace;
  locks: DocumentLocks;
  /** The token writes must carry (DTS_TOKEN); without it every write is 403. */
  token?: string;
  /** Largest accepted body, in bytes (default 4 MiB). */
  maxBody?: number;
  putLowestOnly?: boolean;
  schemas?: SchemaValidators;
  /** Where the write rules are documented (an address this server answers). */
  docsPage: string;
  /** One line per write (never the token). */
  log?: (line: string) => void;
  /** Origins whose pages may write cross-origin (`--cors-origin`). */
  origins?: string[];
}

/**
 * Bodies are read as XML whatever their declared type (curl sends form-urlencoded and fetch
 * text/plain by default), except for types that clearly say they are something else.
 */
const NOT_XML = /^(application\/(json|[\w.-]+\+json|pdf|zip|gzip)|multipart\/|image\/|audio\/|video\/)/i;
const FORMATS = new Set(["tei", "xml", "application/tei+xml"]);
/** How many documents' parsed sources to keep between writes. */
const KEEP = 8;

export class WriteService {
  private readonly indexed = new Map<string, Indexed>();
  /** The request's entry: origin, token, rate of wrong tokens, declared length. */
  readonly admission: WriteAdmission;

  constructor(private readonly options: WriteOptions) {
    this.admission = new WriteAdmission({
      token: this.enabled ? options.token : undefined,
      maxBody: this.maxBody,
      policy: { writes: this.enabled, origins: options.origins ?? [] },
      docsPage: options.docsPage,
    });
  }

  /** Whether writes are accepted (a corpus and a token): then the API documentation lists them. */
  get enabled(): boolean {
    return Boolean(this.options.workspace && this.options.token);
  }

  get methods(): DocumentMethod[] {
    return this.enabled ? ["GET", ...WRITE_METHODS] : ["GET"];
  }

  get maxBody(): number {
    return this.options.maxBody ?? DEFAULT_MAX_BODY;
  }

  /** Answers a write; `client` is its address (wrong tokens are rate-limited by it). */
  async handle(request: Request, client = ""): Promise<Response> {
    const started = performance.now();
    const timing: [string, number][] = [];
    let mark = started;
    const lap = (name: string): void => {
      const now = performance.now();
      timing.push([name, now - mark]);
      mark = now;
    };
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    let response: DtsResponse;
    let extra: Record<string, string> = {};
    let summary = "";
    try {
      const result = await this.apply(method, url, request, client, lap);
      response = result.response;
      summary = result.summary;
      if (result.etag) extra = { ETag: result.etag };
    } catch (e) {
      if (!(e instanceof DtsError)) {
        this.options.log?.(`dts serve: ${method} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        response = xmlError(
          this.options.site,
          500,
          "The write failed on the server; the document was not changed unless it says otherwise in the server's log.",
        );
      } else {
        response = renderError(this.options.site, "document", e);
        extra = e.headers;
        if (e.status === CLIENT_ABORTED) summary = "aborted by the client mid-body";
      }
    }
    const own = { ...extra };
    // A body refused before it was read is not read at all: the connection is closed instead.
    if (request.body && !request.bodyUsed) own.Connection = "close";
    if (timing.length) own["Server-Timing"] = timing.map(([n, d]) => `${n};dur=${d.toFixed(1)}`).join(", ");
    const out = toResponse(response, { requestHeaders: request.headers, headers: own });
    const id = url.searchParams.get("id") ?? "";
    this.options.log?.(
      `dts serve: ${logValue(method)} ${logValue(id)} ${response.status} ${(performance.now() - started).toFixed(0)} ms${summary ? `: ${summary}` : ""}`,
    );
    return out;
  }

  private async apply(
    method: string,
    url: URL,
    request: Request,
    client: string,
    lap: (name: string) => void,
  ): Promise<{ response: DtsResponse; summary: string; etag?: string }> {
    const { site, reader } = this.options;
    this.admission.admit(url, request.headers, client);
    const workspace = this.options.workspace!;
    const q = url.searchParams;
    const get = (name: string): string | undefined => q.get(name) ?? undefined;
    const id = get("id");
    const ref = get("ref");
    const start = get("start");
    const end = get("end");
    const after = get("after");
    const before = get("before");
    const format = get("format");
    if (id === undefined || id === "") throw new DtsError(400, "The required parameter id is missing.");
    if (format !== undefined && !FORMATS.has(format)) {
      throw new DtsError(400, `format "${format}" is not supported: bodies and responses are TEI XML (format=tei, the default).`);
    }
    if (method === "POST") {
      const given = ["ref", "start", "end"].filter((n) => q.has(n));
      if (given.length) {
        throw new DtsError(
          400,
          `POST takes no ${given.join(", ")}: the new passage's reference comes from the body (its @n), and after or before says where it goes.`,
        );
      }
      if (after !== undefined && before !== undefined) {
        throw new DtsError(400, "POST takes after or before, not both: the new passage goes after one passage or before another.");
      }
    } else if (method === "PUT") {
      const given = ["start", "end", "after", "before"].filter((n) => q.has(n));
      if (given.length) {
        throw new DtsError(400, `PUT replaces one passage named by ref and takes no ${given.join(", ")}.`);
      }
      if (ref === undefined || ref === "") throw new DtsError(400, "PUT needs ref, the passage to replace.");
    } else {
      if (after !== undefined || before !== undefined) throw new DtsError(400, "DELETE takes ref, or start and end; not after or before.");
      if (ref !== undefined && (start !== undefined || end !== undefined)) {
        throw new DtsError(400, "ref cannot be combined with start or end: DELETE removes one passage (ref) or one range (start and end).");
      }
      if ((start === undefined) !== (end === undefined)) {
        throw new DtsError(
          400,
          `A range to delete needs both start and end; only ${start !== undefined ? "start" : "end"} was given. ` +
            `DELETE takes no open range (GET does), so that it never removes more than it names.`,
        );
      }
      if (ref === undefined && start === undefined)
        throw new DtsError(400, "DELETE needs ref, or start and end: the passage(s) to remove.");
    }
    const node = workspace.library.nodes.get(id);
    if (!node) throw new DtsError(404, noDocument(id));
    if (node.kind !== "resource") throw new DtsError(404, `"${id}" is a collection, not a document: only documents have text to write.`);

    let body: Uint8Array | null = null;
    if (method !== "DELETE") {
      const type = request.headers.get("content-type");
      if (type && NOT_XML.test(type)) {
        throw new DtsError(415, `The body's Content-Type is ${type}: send TEI XML (application/tei+xml or application/xml).`);
      }
      body = await readBody(request, this.maxBody, this.admission.tooLarge);
      lap("read");
    }

    // What the client read and names in If-Match: the passage or range it changes, or for POST the document.
    const read = new URL(documentUrl(site, id, method === "POST" ? {} : { ref, start, end }), url);
    return this.options.locks.serial(id, async () => {
      await checkIfMatch(reader, read, request.headers.get("if-match"), method === "POST" ? "the document" : "the passage");
      const resource = workspace.resource(id)!;
      if (method === "POST" && after === undefined && before === undefined) return this.create(resource, body!, lap);
      const old = await this.current(resource);
      lap("load");
      let plan: Plan;
      let fragmentBody: Uint8Array | undefined;
      if (method === "PUT") {
        const fb = parseFragmentBody(body!, "PUT", this.options.docsPage);
        fragmentBody = fb.body;
        lap("parse");
        plan = planPut(old, ref!, fb, { putLowestOnly: this.options.putLowestOnly, docs: this.options.docsPage });
      } else if (method === "POST") {
        const fb = parseFragmentBody(body!, "POST with after or before", this.options.docsPage);
        fragmentBody = fb.body;
        lap("parse");
        plan = planInsert(old, after !== undefined ? "after" : "before", (after ?? before)!, fb, { docs: this.options.docsPage });
      } else {
        plan = planDelete(old, { ref, start, end });
      }
      lap("splice");
      await this.validate(resource, plan.next.source, plan, fragmentBody);
      lap("validate");
      const rendered = await this.commit(resource, old, plan.next, false);
      lap("commit");
      const next = new CitedText(id, plan.next.index, plan.next.source);
      let response: DtsResponse;
      if (method === "DELETE") {
        const rendered = renderDocument(site, { id, ...plan.answer }, old);
        // The old content, in the shape of a GET; its passage links would name what no longer exists.
        response = {
          ...rendered,
          link: linkHeader(site, [
            ["contents", navigationUrl(site, id)],
            ["collection", collectionUrl(site, id)],
          ]),
        };
      } else {
        // The passage the rebuild rendered already, when it is the answer (a PUT of one passage).
        response =
          (plan.answer.ref !== undefined ? rendered.get(plan.answer.ref) : undefined) ?? renderDocument(site, { id, ...plan.answer }, next);
        response.status = method === "POST" ? 201 : 200;
        response.location = documentUrl(site, id, plan.answer);
      }
      // A PUT answers the passage as a GET now would, with the tag to send with the next change.
      const etag = method === "PUT" ? (await reader.currentTags(read))[0] : undefined;
      return { response, summary: plan.summary, etag };
    });
  }

  /** The document's current source and index (from the last write when the file is unchanged). */
  private async current(resource: ResourceNode): Promise<CitedText> {
    let source: Buffer;
    try {
      source = await readFile(resource.file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      throw new DtsError(
        404,
        `The document "${resource.id}" has a metadata record but no text yet, so it has no passage to change. Create its text first: POST the whole TEI document without after or before.`,
      );
    }
    const kept = this.indexed.get(resource.id);
    if (kept && Buffer.from(kept.source.buffer, kept.source.byteOffset, kept.source.length).equals(source)) {
      return new CitedText(resource.id, kept.index, kept.source);
    }
    try {
      const { index, problems } = indexDocument(source);
      this.keep(resource.id, { source, index, problems });
      return new CitedText(resource.id, index, source);
    } catch (e) {
      if (!(e instanceof XmlSyntaxError)) throw e;
      throw new DtsError(
        409,
        `The stored source of "${resource.id}" is not well-formed XML (line ${e.line}, column ${e.column}: ${e.reason}), so no passage can be located in it: fix the file first.`,
      );
    }
  }

  private keep(id: string, indexed: Indexed): void {
    this.indexed.delete(id);
    this.indexed.set(id, indexed);
    if (this.indexed.size > KEEP) this.indexed.delete(this.indexed.keys().next().value!);
  }

  /** POST without after or before: the document's first text, a whole TEI document. */
  private async create(
    resource: ResourceNode,
    body: Uint8Array,
    lap: (name: string) => void,
  ): Promise<{ response: DtsResponse; summary: string }> {
    const { site } = this.options;
    const existing = await readFile(resource.file).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return null;
      throw e;
    });
    if (existing) {
      // A file that is there but broken is said to be so (as GET does), and never replaced: it may be an edit in progress.
      try {
        indexDocument(existing);
      } catch (e) {
        if (!(e instanceof XmlSyntaxError)) throw e;
        const file = corpusName(this.options.workspace!.options.corpus, resource.file);
        const where = { file, line: e.line, column: e.column, reason: e.reason };
        throw new DtsError(409, `${unreadableText(resource.id, where)} A POST without after or before only creates a missing file.`);
      }
      throw new DtsError(
        409,
        `The document "${resource.id}" already has text: POST without after or before only creates a document's first text. Add passages with POST after or before, change them with PUT.`,
      );
    }
    parseWholeBody(body, this.options.docsPage);
    lap("parse");
    const next = planCreate(body);
    // In the native layout a document's id may come from its header's idno: it must stay this one.
    const native = resource.metadataFile?.endsWith(".json") ?? false;
    if (native) {
      const header = teiHeaderFromText(new TextDecoder().decode(body), resource.file, []);
      const sidecarId = await readFile(resource.metadataFile!, "utf8")
        .then((t) => (JSON.parse(t.replace(/^\uFEFF/, "")) as { id?: unknown }).id)
        .catch(() => undefined);
      if (header.id && header.id !== resource.id && sidecarId !== resource.id) {
        throw new DtsError(
          422,
          `The teiHeader's idno "${header.id}" would give this text the id "${header.id}", not "${resource.id}": in this corpus a document's id comes from its header's idno (type urn or uri) unless its ${basename(resource.metadataFile!)} sets one. Make the idno "${resource.id}" or remove it.`,
        );
      }
    }
    await this.validate(resource, body, { next, answer: {}, summary: "" }, undefined);
    lap("validate");
    await this.commit(resource, null, next, native);
    lap("commit");
    const text = new CitedText(resource.id, next.index, next.source);
    const response = renderDocument(site, { id: resource.id }, text);
    response.status = 201;
    response.location = documentUrl(site, resource.id);
    response.type = TEI_TYPE;
    return { response, summary: `created ${resource.file}` };
  }

  private async validate(resource: ResourceNode, source: Uint8Array, plan: Plan, body: Uint8Array | undefined): Promise<void> {
    const schemas = this.options.schemas;
    if (!schemas) return;
    const choice = schemas.schemaFor(source, resource.file);
    if (!choice) return;
    const docs = `${this.options.docsPage}#schema-sources`;
    if ("refused" in choice) {
      throw new DtsError(
        422,
        `The document names the schema "${choice.name}" (xml-model), which cannot be used: ${choice.refused}. Nothing was written. See ${docs}.`,
      );
    }
    const schema = choice.name;
    let problems: SchemaProblem[];
    try {
      problems = await schemas.validate(choice.file, source, resource.file);
    } catch (e) {
      // The message may quote the schema's path: show its name only.
      const why = (e instanceof Error ? e.message : String(e)).split(choice.file).join(choice.name);
      throw new DtsError(422, `The schema "${choice.name}" could not be used: ${why}. Nothing was written. See ${docs}.`);
    }
    if (problems.length === 0) return;
    const shown = problems.slice(0, 5).map((p) => {
      const where =
        p.line > 0
          ? `line ${p.line}${p.column ? `, column ${p.column}` : ""} of the resulting document${bodyLine(source, p.line, plan.region, body)}`
          : "the document";
      return `${where}: ${p.message}${p.path ? ` (at ${p.path})` : ""}`;
    });
    const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : "";
    throw new DtsError(
      422,
      `The document would not be valid against the schema ${schema}: ${shown.join("; ")}${more}. Nothing was written. See ${this.options.docsPage}#schema.`,
    );
  }

  /**
   * Writes the new source and rebuilds the document's responses, holding the document's
   * commit lock (its readers wait) and the tree's (one rebuild at a time).
   */
  private async commit(
    resource: ResourceNode,
    previous: CitedText | null,
    next: Indexed,
    reloadCatalog: boolean,
  ): Promise<Map<string, DtsResponse>> {
    const { locks, reader } = this.options;
    const workspace = this.options.workspace!;
    const expected = previous?.source ?? null;
    const rendered = new Map<string, DtsResponse>();
    await locks.serial("#tree", () =>
      locks.commit(resource.id, async () => {
        // The file may have been changed by someone else (an editor, git) since it was read.
        const now = await readFile(resource.file).catch(() => null);
        const unchanged =
          expected === null ? now === null : now?.equals(Buffer.from(expected.buffer, expected.byteOffset, expected.length));
        if (!unchanged) {
          throw new DtsError(
            409,
            `The file of "${resource.id}" changed on disk while this write was being prepared; nothing was written. Send the request again.`,
          );
        }
        await writeFileAtomic(resource.file, next.source);
        this.keep(resource.id, next);
        try {
          if (reloadCatalog) {
            await workspace.rebuildAll();
            reader.invalidate();
          } else {
            const rebuilt = workspace.rebuildDocument(resource.id, { next, previous: previous ?? undefined, rendered });
            forgetStale(reader, staleAfter(rebuilt));
          }
        } catch (e) {
          // The source is written; the tree is brought up to date at the next start (or build).
          reader.invalidate();
          this.options.log?.(`dts serve: rebuilding ${resource.id} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
          throw new DtsError(
            500,
            `The change was written to the document's file, but rebuilding its responses failed (${e instanceof Error ? e.message : String(e)}): they may be out of date until the server restarts or dts build runs.`,
          );
        }
      }),
    );
    return rendered;
  }
}
