// Every page htmldrop shows a person, checked by axe-core on a phone (390×844): tests/helpers/accessibility-pages.ts.
import { checkEveryPage } from "../helpers/accessibility-pages";

checkEveryPage("phone");
