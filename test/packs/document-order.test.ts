// Sequences of nodes in document order (normalize): duplicates dropped, an ancestor before its descendants, flags
// before children, siblings by position, and nodes of two documents by their paths from the document node.
import { describe, expect, it } from "vitest";
import { packModule } from "#generated/packs/index.js";
import { packProgram, type PackModule } from "../../runtime/packs/engine.js";
import { ChildNames, normalize, viewOf, type XNode } from "../../runtime/packs/node-view.js";

const program = packProgram(packModule("fedramp") as PackModule);
const catalog = (title: string) => ({
  catalog: {
    uuid: "9c1e5b6a-2f0d-4c3e-8a7b-1d2e3f4a5b6c",
    metadata: { title, "last-modified": "2024-05-01T12:00:00Z", version: "1", "oscal-version": "1.2.2" },
    controls: [{ id: "a-1", title: "A 1", controls: [{ id: "a-1.1", title: "A 1 (1)" }] }, { id: "a-2", title: "A 2" }],
  },
});
const label = (node: XNode) => `${node.view === first.view ? "first" : "second"}${node.pointer()}`;
const first = viewOf(program, catalog("First"))!.root.children()[0]!;
const second = viewOf(program, catalog("Second"))!.root.children()[0]!;

describe("document order", () => {
  it("sorts and dedupes nodes of one document and of two", () => {
    const controls = new ChildNames(["control"]);
    const [a1, a2] = first.childrenNamed(controls) as [XNode, XNode];
    const a11 = a1.childrenNamed(controls)[0]!;
    const [b1, b2] = second.childrenNamed(controls) as [XNode, XNode];
    const nodes = [a2, a11, b1, a1.flag("id")[0]!, a1, first, a11, b2, second.descendants(["title"])[0]!];
    expect(normalize(nodes).map((node) => label(node as XNode))).toEqual([
      "first/catalog",
      "second/catalog/metadata/title",
      // Nodes at the same path in two documents tie: they keep the order they came in.
      "second/catalog/controls/0",
      "first/catalog/controls/0",
      "first/catalog/controls/0/id",
      "first/catalog/controls/0/controls/0",
      "first/catalog/controls/1",
      "second/catalog/controls/1",
    ]);
  });
});
