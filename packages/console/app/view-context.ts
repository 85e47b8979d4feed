// The types the shell hands its views, apart from the shell, so that a view depends on what it is
// given and not on the shell that lays the views out.
import type { Me } from './session.js';

/** The page's settings from its meta tag (BASEMAP_STYLE_URL). */
export interface Settings {
  basemapStyleUrl: string | null;
}

/** What a view gets: who is signed in, what they may do, and the page's settings. */
export interface ViewContext {
  me: Me;
  /** D8: analysts and admins write buy boxes, discovery and the pipeline; the server enforces it too. */
  canWrite: boolean;
  settings: Settings;
}
