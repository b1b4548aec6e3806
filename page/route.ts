// The page's own addresses: what it shows is in its query string (`?id=&ref=`), read by the
// page itself, so a shared link works on any host, static ones included.

export interface Place {
  id: string;
  ref?: string;
  start?: string;
  end?: string;
}

export type Route =
  | { view: "collection"; id?: string; page?: number }
  | { view: "resource"; id: string }
  | { view: "passage"; place: Place };

export function parseRoute(search: string): Route {
  const q = new URLSearchParams(search);
  const id = q.get("id");
  const page = Number(q.get("page") ?? "");
  if (id === null) {
    const collection = q.get("collection") ?? undefined;
    return { view: "collection", id: collection, ...(page > 0 ? { page } : {}) };
  }
  const ref = q.get("ref");
  const start = q.get("start");
  const end = q.get("end");
  if (ref !== null) return { view: "passage", place: { id, ref } };
  if (start !== null || end !== null) return { view: "passage", place: { id, ...(start ? { start } : {}), ...(end ? { end } : {}) } };
  return { view: "resource", id };
}

/** A query value encoded as the API writes it: `:` `/` `@` stay readable (they are legal in a query). */
export function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%3A/gi, ":").replace(/%2F/gi, "/").replace(/%40/gi, "@");
}

export function routeHref(route: Route): string {
  const q = new Map<string, string>();
  if (route.view === "collection") {
    if (route.id !== undefined) q.set("collection", route.id);
    if (route.page && route.page > 1) q.set("page", String(route.page));
  } else if (route.view === "resource") q.set("id", route.id);
  else {
    const { id, ref, start, end } = route.place;
    q.set("id", id);
    if (ref !== undefined) q.set("ref", ref);
    if (start !== undefined) q.set("start", start);
    if (end !== undefined) q.set("end", end);
  }
  return `?${[...q].map(([k, v]) => `${k}=${encodeQueryValue(v)}`).join("&")}`;
}

export const passageRoute = (place: Place): Route =>
  place.ref === undefined && place.start === undefined && place.end === undefined
    ? { view: "resource", id: place.id }
    : { view: "passage", place };

/** How a passage is named to a reader: `1.2`, or `1.2–1.5` for a range. */
export function placeLabel(place: Place): string {
  if (place.ref !== undefined) return place.ref;
  return `${place.start ?? "…"}–${place.end ?? "…"}`;
}
