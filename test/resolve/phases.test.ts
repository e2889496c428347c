// What each phase does to a small catalog, through the library with documents held in memory (the `documents`
// option): selection, combine and structure, set-parameter and alter, back-matter, and imports of profiles.
import { describe, expect, it } from "vitest";
import { resolveProfile, validate } from "../../runtime/index.js";
import { catalogOf, controlIds, errorOf } from "./support.js";

const metadata = { title: "Phases", "last-modified": "2024-05-01T12:00:00Z", version: "1", "oscal-version": "1.2.2" };
const keep = [{ name: "keep", value: "always" }];
const UUIDS = { cited: "11111111-1111-4111-8111-111111111111", unused: "22222222-2222-4222-8222-222222222222", kept: "33333333-3333-4333-8333-333333333333" };

const catalog = {
  catalog: {
    uuid: "9c1e5b6a-2f0d-4c3e-8a7b-1d2e3f4a5b6c",
    metadata,
    groups: [
      {
        id: "g-a",
        title: "Group A",
        params: [{ id: "loose-a", label: "Loose A" }],
        controls: [
          {
            id: "a-1",
            title: "A 1",
            params: [{ id: "a-1_prm", label: "A 1 parameter", select: { choice: ["one", "two"] } }],
            props: [{ name: "label", value: "A-1" }, { name: "status", value: "draft", class: "x" }],
            links: [{ href: `#${UUIDS.cited}`, rel: "reference" }],
            parts: [{ id: "a-1_smt", name: "statement", prose: "Do {{ insert: param, a-1_prm }} and {{ insert: param, loose-a }}.", parts: [{ id: "a-1_smt.a", name: "item", prose: "a" }, { id: "a-1_smt.b", name: "item", prose: "b" }] }],
            controls: [{ id: "a-1.1", title: "A 1 (1)", controls: [{ id: "a-1.1.1", title: "A 1 (1)(1)" }] }],
          },
          { id: "a-2", title: "A 2" },
        ],
      },
      { id: "g-b", title: "Group B", params: [{ id: "loose-b", label: "Loose B" }], controls: [{ id: "b-1", title: "B 1" }, { id: "b-2", title: "B 2" }] },
    ],
    "back-matter": {
      resources: [
        { uuid: UUIDS.cited, title: "Cited" },
        { uuid: UUIDS.unused, title: "Unused" },
        { uuid: UUIDS.kept, title: "Kept", props: keep },
      ],
    },
  },
};

function profile(body: Record<string, unknown>, imports: unknown[] = [{ href: "catalog.json", "include-all": {} }]) {
  return { profile: { uuid: "3b1f5c2a-6d4e-4f8a-9b0c-1d2e3f4a5b6c", metadata, imports, ...body } };
}

function resolve(document: unknown, documents: Record<string, unknown> = {}) {
  const result = resolveProfile(document, { documents: { "catalog.json": catalog, ...documents }, now: new Date("2026-01-02T03:04:05Z") });
  const resolved = catalogOf(result);
  const report = validate(resolved);
  expect(report.kind === "report" && report.report.issues).toEqual([]);
  return resolved.catalog as any;
}

const control = (resolved: any, id: string): any => {
  const find = (controls: any[] = []): any => controls.map((candidate) => (candidate.id === id ? candidate : find(candidate.controls))).find(Boolean);
  return find(resolved.controls) ?? resolved.groups?.map((group: any) => find(group.controls)).find(Boolean);
};

describe("import: selection", () => {
  it("with-ids brings the control's ancestors; with-child-controls its descendants; matching is a glob", () => {
    const byId = resolve(profile({}, [{ href: "catalog.json", "include-controls": [{ "with-ids": ["a-1.1"] }] }]));
    expect(controlIds({ catalog: byId })).toEqual(["a-1", "a-1.1"]);
    const withChildren = resolve(profile({}, [{ href: "catalog.json", "include-controls": [{ "with-ids": ["a-1"], "with-child-controls": "yes" }] }]));
    expect(controlIds({ catalog: withChildren })).toEqual(["a-1", "a-1.1", "a-1.1.1"]);
    const matching = resolve(profile({}, [{ href: "catalog.json", "include-controls": [{ matching: [{ pattern: "?-2" }, { pattern: "b*" }] }] }]));
    expect(controlIds({ catalog: matching })).toEqual(["a-2", "b-1", "b-2"]);
  });

  it("exclusion wins over inclusion, and as-is moves a child of an excluded control up to its place", () => {
    const resolved = resolve(
      profile({ merge: { "as-is": true } }, [{ href: "catalog.json", "include-all": {}, "exclude-controls": [{ "with-ids": ["a-1"] }, { matching: [{ pattern: "b-*" }] }] }]),
    );
    expect(resolved.groups.map((group: any) => group.id)).toEqual(["g-a"]);
    expect(resolved.groups[0].controls.map((item: any) => item.id)).toEqual(["a-1.1", "a-2"]);
    expect(resolved.groups[0].controls[0].controls.map((item: any) => item.id)).toEqual(["a-1.1.1"]);
  });
});

describe("merge", () => {
  const twice = [
    { href: "catalog.json", "include-controls": [{ "with-ids": ["b-2", "a-2"] }] },
    { href: "catalog.json", "include-controls": [{ "with-ids": ["a-2", "b-1"] }] },
  ];

  it("use-first keeps the first control of an id; keep (the default) keeps both", () => {
    expect(controlIds({ catalog: resolve(profile({ merge: { combine: { method: "use-first" } } }, twice)) })).toEqual(["a-2", "b-2", "b-1"]);
    const kept = resolveProfile(profile({}, twice), { documents: { "catalog.json": catalog } });
    expect(controlIds(catalogOf(kept))).toEqual(["a-2", "b-2", "a-2", "b-1"]);
    expect(kept.kind === "catalog" && kept.warnings).toEqual(["combine method keep: controls included more than once: a-2"]);
  });

  it("flat lists every control under the catalog, and loose params that something refers to", () => {
    const resolved = resolve(profile({}));
    expect(resolved.groups).toBeUndefined();
    expect(resolved.controls.map((item: any) => item.id)).toEqual(["a-1", "a-1.1", "a-1.1.1", "a-2", "b-1", "b-2"]);
    expect(resolved.params).toEqual([{ id: "loose-a", label: "Loose A" }]);
  });

  it("custom builds the declared groups from the included controls, in the order asked", () => {
    const resolved = resolve(
      profile({
        merge: {
          custom: {
            groups: [
              { id: "g-b", title: "B, from the catalog", "insert-controls": [{ order: "descending", "include-all": {} }] },
              { id: "new", title: "New", "insert-controls": [{ "include-controls": [{ matching: [{ pattern: "a-1*" }] }] }] },
            ],
          },
        },
      }),
    );
    expect(resolved.groups.map((group: any) => [group.id, group.title, group.controls.map((item: any) => item.id)])).toEqual([
      ["g-b", "B, from the catalog", ["b-2", "b-1", "a-2", "a-1.1.1", "a-1.1", "a-1"]],
      ["new", "New", ["a-1", "a-1.1", "a-1.1.1"]],
    ]);
    // A custom group with a catalog group's id brings its params (req-custom-group-contents).
    expect(resolved.groups[0].params).toEqual([{ id: "loose-b", label: "Loose B" }]);
  });
});

describe("modify", () => {
  const include = [{ href: "catalog.json", "include-controls": [{ "with-ids": ["a-1"] }] }];

  it("set-parameter replaces label and values (dropping select), adds props and constraints, applies every directive in order", () => {
    const resolved = resolve(
      profile(
        {
          modify: {
            "set-parameters": [
              { "param-id": "a-1_prm", label: "Set once", values: ["v1"], props: [{ name: "p", value: "1" }] },
              { "param-id": "a-1_prm", label: "Set twice", constraints: [{ description: "at least weekly" }] },
            ],
          },
        },
        include,
      ),
    );
    expect(control(resolved, "a-1").params[0]).toEqual({ id: "a-1_prm", props: [{ name: "p", value: "1" }], label: "Set twice", constraints: [{ description: "at least weekly" }], values: ["v1"] });
  });

  it("members a set-parameter or an add brings stand in the model's order; members already in order stay as they are", () => {
    const resolved = resolve(
      profile(
        {
          modify: {
            "set-parameters": [{ "param-id": "a-1_prm", label: "Set", props: [{ name: "p", value: "1" }] }],
            alters: [{ "control-id": "a-1", adds: [{ position: "ending", "by-id": "a-1_smt", props: [{ name: "added", value: "1" }] }] }],
          },
        },
        include,
      ),
    );
    const altered = control(resolved, "a-1");
    expect(Object.keys(altered.params[0])).toEqual(["id", "props", "label", "select"]);
    expect(Object.keys(altered)).toEqual(["id", "title", "params", "props", "links", "parts"]);
  });

  it("remove takes every object matching all its criteria; by-item-name takes a whole array", () => {
    const resolved = resolve(
      profile({ modify: { alters: [{ "control-id": "a-1", removes: [{ "by-name": "status", "by-class": "x" }, { "by-item-name": "link" }, { "by-id": "a-1_smt.a" }, { "by-name": "label", "by-class": "y" }] }] } }, include),
    );
    const altered = control(resolved, "a-1");
    expect(altered.props).toEqual([{ name: "label", value: "A-1" }]);
    expect(altered.links).toBeUndefined();
    expect(altered.parts[0].parts.map((part: any) => part.id)).toEqual(["a-1_smt.b"]);
  });

  it("add places contents at the start or end of the control, or before, after or inside the object by-id names", () => {
    const prop = (value: string) => ({ name: "added", value });
    const resolved = resolve(
      profile(
        {
          // as-is keeps a-1.1 inside a-1, where an add on a-1 can reach it (req-modify-alter-add-nested).
          merge: { "as-is": true },
          modify: {
            alters: [
              {
                "control-id": "a-1",
                adds: [
                  { position: "starting", props: [prop("start")] },
                  { props: [prop("end")] },
                  { position: "before", "by-id": "a-1_smt.b", parts: [{ id: "before-b", name: "item" }] },
                  { position: "after", "by-id": "a-1_smt.b", parts: [{ id: "after-b", name: "item" }] },
                  { position: "starting", "by-id": "a-1_smt", props: [prop("in-statement")] },
                  { position: "ending", "by-id": "a-1.1", title: "Retitled" },
                  { position: "starting", "by-id": "a-1", props: [prop("ignored: by-id names the control itself")] },
                ],
              },
            ],
          },
        },
        [{ href: "catalog.json", "include-controls": [{ "with-ids": ["a-1"], "with-child-controls": "yes" }] }],
      ),
    );
    const altered = control(resolved, "a-1");
    expect(altered.props.map((item: any) => item.value)).toEqual(["start", "A-1", "draft", "end"]);
    expect(altered.parts[0].props).toEqual([prop("in-statement")]);
    expect(altered.parts[0].parts.map((part: any) => part.id)).toEqual(["a-1_smt.a", "before-b", "a-1_smt.b", "after-b"]);
    expect(control(resolved, "a-1.1").title).toBe("Retitled");
  });

  it("changes none of the documents it reads; a control included twice is altered once in each place", () => {
    const twice = [
      { href: "catalog.json", "include-controls": [{ "with-ids": ["a-1"] }] },
      { href: "catalog.json", "include-controls": [{ "with-ids": ["a-1"] }] },
    ];
    const document = profile(
      {
        modify: {
          "set-parameters": [{ "param-id": "a-1_prm", label: "Set" }],
          alters: [{ "control-id": "a-1", removes: [{ "by-name": "status" }], adds: [{ position: "starting", "by-id": "a-1_smt.b", props: [{ name: "added", value: "1" }] }] }],
        },
      },
      twice,
    );
    const [catalogBefore, profileBefore] = [structuredClone(catalog), structuredClone(document)];
    const result = resolveProfile(document, { documents: { "catalog.json": catalog } });
    const controls = catalogOf(result).catalog.controls as any[];
    expect(controls.map((altered) => [altered.params[0].label, altered.props.map((prop: any) => prop.name), altered.parts[0].parts[1].props])).toEqual([
      ["Set", ["label"], [{ name: "added", value: "1" }]],
      ["Set", ["label"], [{ name: "added", value: "1" }]],
    ]);
    expect(catalog).toEqual(catalogBefore);
    expect(document).toEqual(profileBefore);
  });
});

describe("back-matter and imports of profiles", () => {
  it("keeps the resources referred to or kept always; a later resource replaces an earlier one unless only that is kept always", () => {
    const resolved = resolve(
      profile({
        "back-matter": {
          resources: [
            { uuid: UUIDS.cited, title: "Cited, from the profile" },
            { uuid: UUIDS.kept, title: "Not kept always: does not replace" },
          ],
        },
      }),
    );
    expect(resolved["back-matter"].resources.map((resource: any) => resource.title)).toEqual(["Kept", "Cited, from the profile"]);
  });

  it("a profile importing a profile through a back-matter rlink and a base64 resource resolves the inner one first", () => {
    const inner = profile({ modify: { alters: [{ "control-id": "b-1", adds: [{ props: [{ name: "from", value: "inner" }] }] }] } }, [
      { href: "catalog.json", "include-controls": [{ "with-ids": ["b-1", "b-2"] }] },
    ]);
    const viaRlink = "44444444-4444-4444-8444-444444444444";
    const viaBase64 = "55555555-5555-4555-8555-555555555555";
    const outer = profile(
      { merge: { combine: { method: "use-first" } }, "back-matter": { resources: [{ uuid: viaRlink, rlinks: [{ href: "missing.json" }, { href: "inner.json" }] }, { uuid: viaBase64, base64: { value: Buffer.from(JSON.stringify(inner)).toString("base64") } }] } },
      [
        { href: `#${viaRlink}`, "include-controls": [{ "with-ids": ["b-1"] }] },
        { href: `#${viaBase64}`, "include-all": {} },
      ],
    );
    const resolved = resolve(outer, { "inner.json": inner });
    expect(controlIds({ catalog: resolved })).toEqual(["b-1", "b-2"]);
    expect(control(resolved, "b-1").props).toEqual([{ name: "from", value: "inner" }]);
  });

  it("an import whose resource has neither a usable rlink nor base64 says why for each", () => {
    const uuid = "66666666-6666-4666-8666-666666666666";
    const outer = profile({ "back-matter": { resources: [{ uuid, rlinks: [{ href: "a.json" }, { href: "b.json" }] }] } }, [{ href: `#${uuid}`, "include-all": {} }]);
    expect(errorOf(resolveProfile(outer, { documents: {} })).detail).toBe(
      `profile -> #${uuid}: the resource ${uuid} is not available: rlink "a.json": no document is supplied for it; rlink "b.json": no document is supplied for it`,
    );
  });
});
