// TEI to readable HTML: verse lines with their numbers, paragraphs, headings, notes set apart.
// Numbers and other marks are drawn by CSS from data attributes, so the text a reader selects
// (and the element's textContent) is the passage's text and nothing else.

const TEI_NS = "http://www.tei-c.org/ns/1.0";
const XML_NS = "http://www.w3.org/XML/1998/namespace";
const DTS_NAMES = ["fragment", "wrapper"];

/** The element holding a Document answer's text: `dts:fragment` (1-draft2), `dts:wrapper` (1.0), or a whole TEI's `text`. */
export function passageContent(doc: Document): Element | null {
  const root = doc.documentElement;
  if (!root || root.getElementsByTagName("parsererror").length) return null;
  for (const el of Array.from(root.children)) if (DTS_NAMES.includes(el.localName) && el.namespaceURI !== TEI_NS) return el;
  return root.getElementsByTagNameNS(TEI_NS, "text")[0] ?? root;
}

export function parseTei(xml: string): Document {
  return new DOMParser().parseFromString(xml, "application/xml");
}

/** What an element becomes: an HTML tag and a class. */
function shape(el: Element): [keyof HTMLElementTagNameMap, string] {
  switch (el.localName) {
    case "l":
      return ["div", "l"];
    case "lg":
      return ["div", "lg"];
    case "p":
      return ["p", "p"];
    case "head":
      return ["h3", "head"];
    case "note":
      return ["span", "note"];
    case "div":
      return ["section", "div"];
    case "lb":
      return ["br", "lb"];
    case "quote":
    case "q":
      return ["q", "q"];
    case "hi":
    case "emph":
    case "foreign":
    case "title":
      return ["em", el.localName];
    default:
      return ["span", `tei-${el.localName}`];
  }
}

/** Elements of a TEI header or apparatus that are not the text. */
const SKIPPED = new Set(["teiHeader", "facsimile"]);

export function renderTei(content: Element): DocumentFragment {
  const out = document.createDocumentFragment();
  for (const child of Array.from(content.childNodes)) {
    const node = renderNode(child);
    if (node) out.appendChild(node);
  }
  return out;
}

function renderNode(node: Node): Node | null {
  if (node.nodeType === Node.TEXT_NODE || node.nodeType === Node.CDATA_SECTION_NODE) return document.createTextNode(node.nodeValue ?? "");
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const el = node as Element;
  if (SKIPPED.has(el.localName)) return null;
  const [tag, cls] = shape(el);
  const out = document.createElement(tag);
  out.className = cls;
  const n = el.getAttribute("n");
  if (n !== null) out.dataset.n = n;
  const lang = el.getAttributeNS(XML_NS, "lang");
  if (lang) out.lang = lang;
  const type = el.getAttribute("type") ?? el.getAttribute("place");
  if (type) out.dataset.type = type;
  if (cls === "note") out.setAttribute("role", "note");
  if (tag === "br") return out;
  for (const child of Array.from(el.childNodes)) {
    const rendered = renderNode(child);
    if (rendered) out.appendChild(rendered);
  }
  return out;
}
