// The header of every page (base.html): the search box (search.js) and the "My games" count of the games
// whose turn is yours (turns.js).

import "./search.js";
import "./turns.js";
