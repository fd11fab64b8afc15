// Rowstream first paint of the column shapes (columnsfirst.js): the page's head loads this module with
// `blocking="render"`, so the table is first drawn with the columns the viewer hid and the widths they chose on this
// page (columnshape.js), and nothing moves when the page script starts. No other work: the table's columns.js takes
// each sheet over. Loaded by index.html and page.html.
import { adoptStored } from './columnshape.js';

adoptStored();
