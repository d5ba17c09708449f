// The 2048 page (/arcade/2048): the arcade controller (play.js) with the flat view of the 4x4.

import { startArcade } from "../play.js";
import { flatView } from "./view.js";

startArcade({ view: flatView(), mode: "classic" });
