// Prints the licences of the packages bundled into dist/viewer.js (for dist/LICENSES.txt,
// which mbs-view copies into every page).
import { readFileSync } from "node:fs";
for (const name of ["three", "uplot"]) {
  const pkg = JSON.parse(readFileSync(`node_modules/${name}/package.json`, "utf8"));
  console.log(`${name} ${pkg.version} (${pkg.license}), https://www.npmjs.com/package/${name}\n`);
  console.log(readFileSync(`node_modules/${name}/LICENSE`, "utf8").trim() + "\n");
}
