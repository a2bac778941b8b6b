// Every page htmldrop shows a person, checked by axe-core on a desktop (1280×800): tests/helpers/accessibility-pages.ts.
import { checkEveryPage } from "../helpers/accessibility-pages";

checkEveryPage("desktop");
