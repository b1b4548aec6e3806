// DTS 1.0 Entry endpoint: the version and the URI templates of the three endpoints.

import type { Site } from "../../site.js";
import { entryTemplates, v1Url } from "../../v1/urls.js";
import type { DtsResponse } from "../response.js";
import { v1Head, v1JsonResponse } from "./common.js";

export function renderV1Entry(site: Site): DtsResponse {
  return v1JsonResponse({ ...v1Head(), "@id": v1Url(site, { kind: "v1-entry" }), "@type": "EntryPoint", ...entryTemplates(site) });
}
