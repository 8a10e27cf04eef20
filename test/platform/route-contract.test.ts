import { PDFDocument } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { KEY_PERMISSIONS, type KeyPermission } from "../../src/auth/principal";
import type { AnyRoute, TeamPermission } from "../../src/http/route";
import { ROUTES } from "../../src/routes/registry";
import { mailedInviteToken } from "../accounts/support";
import { createAccount, createKey, uniqueEmail } from "../support/accounts";
import { ADMIN_TOKEN, call, pdfFile, postForm, postJson, problem, withKey, withToken } from "../support/http";
import { type AuthClass, authClassOf, callRoute, fillPath, paramNames } from "../support/route-contract";
import { installNetwork, receiver } from "../webhooks/support/network";
import { createEndpoint, sendTest, waitForDelivery } from "../webhooks/support/hooks";

// The shared auth failures, run against every non-tool route the registry
// declares, by its auth class (http/route.ts): a new route gets these checks
// without writing them again, and a route of a class the contract does not
// know fails here. The tool routes have theirs in contract.test.ts.

const operator = { Authorization: `Bearer ${ADMIN_TOKEN}` };

interface World {
  a: {
    accountId: string;
    ownerId: string;
    owner: string;
    adminId: string;
    admin: string;
    memberId: string;
    member: string;
    key: string;
    keyId: string;
    revokedKey: string;
    endpointId: string;
    deliveryId: string;
    jobId: string;
  };
  b: { token: string; key: string };
}

let w: World;

/** A sessionless dashboard JWT for a user, from the operator API (signing out with it ends nothing shared). */
async function tokenFor(userId: string): Promise<string> {
  const res = await postJson(`/admin/v1/users/${userId}/tokens`, {}, operator);
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

async function joinAs(ownerToken: string, role: "admin" | "member"): Promise<{ id: string; token: string }> {
  const email = uniqueEmail(role);
  expect((await postJson("/api/v1/team/invitations", { email, role }, withToken(ownerToken))).status).toBe(201);
  expect((await postJson("/api/v1/team/invitations/accept", { invite_token: await mailedInviteToken(email) })).status).toBe(200);
  const list = (await (await call("/api/v1/team/members", { headers: withToken(ownerToken) })).json()) as { data: { id: string; email: string }[] };
  const id = list.data.find((m) => m.email === email)?.id;
  expect(id).toBeDefined();
  return { id: id as string, token: await tokenFor(id as string) };
}

async function jobOf(key: string): Promise<string> {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]);
  const pdf = await doc.save();
  const res = await postForm("/api/v1/pdf/merge/merge", { files: [pdfFile(pdf, "a.pdf"), pdfFile(pdf, "b.pdf")] }, withKey(key));
  expect(res.status).toBe(200);
  return ((await res.json()) as { job_id: string }).job_id;
}

beforeAll(async () => {
  installNetwork();
  const a = await createAccount({ plan: "pro", credits: 1000 });
  const b = await createAccount({ plan: "pro", credits: 1000 });
  const [admin, member] = [await joinAs(a.token, "admin"), await joinAs(a.token, "member")];
  const key = await createKey(a.token);
  const revoked = await createKey(a.token);
  expect((await call(`/api/v1/keys/${revoked.id}`, { method: "DELETE", headers: withToken(a.token) })).status).toBe(204);
  const endpoint = await createEndpoint(a.token, receiver().url);
  const delivery = await sendTest(a.token, endpoint.id);
  // The record is written when the queue consumer takes the message.
  await waitForDelivery(a.token, endpoint.id, (d) => d.id === delivery.delivery_id);
  w = {
    a: {
      accountId: a.accountId,
      ownerId: a.ownerId,
      owner: a.token,
      adminId: admin.id,
      admin: admin.token,
      memberId: member.id,
      member: member.token,
      key: key.api_key,
      keyId: key.id,
      revokedKey: revoked.api_key,
      endpointId: endpoint.id,
      deliveryId: delivery.delivery_id,
      jobId: await jobOf(key.api_key),
    },
    b: { token: b.token, key: (await createKey(b.token)).api_key },
  };
});

// Path parameters naming account A's own records, per route. A route with a
// parameter missing here fails (fillPath), so a new one must say what it names.
const OWNED: Record<string, (x: World["a"]) => Record<string, string>> = {
  getKey: (x) => ({ keyId: x.keyId }),
  revokeKey: (x) => ({ keyId: x.keyId }),
  updateTeamMember: (x) => ({ userId: x.memberId }),
  removeTeamMember: (x) => ({ userId: x.memberId }),
  getWebhookEndpoint: (x) => ({ id: x.endpointId }),
  updateWebhookEndpoint: (x) => ({ id: x.endpointId }),
  deleteWebhookEndpoint: (x) => ({ id: x.endpointId }),
  rotateWebhookSecret: (x) => ({ id: x.endpointId }),
  sendWebhookTest: (x) => ({ id: x.endpointId }),
  listWebhookDeliveries: (x) => ({ id: x.endpointId }),
  getWebhookDelivery: (x) => ({ id: x.endpointId, deliveryId: x.deliveryId }),
  redeliverWebhookDelivery: (x) => ({ id: x.endpointId, deliveryId: x.deliveryId }),
  getJob: (x) => ({ id: x.jobId }),
  adminGetAccount: (x) => ({ id: x.accountId }),
  adminUpdateAccount: (x) => ({ id: x.accountId }),
  adminAdjustCredits: (x) => ({ id: x.accountId }),
  adminRecordPayment: (x) => ({ id: x.accountId }),
  adminReportPaymentFailure: (x) => ({ id: x.accountId }),
  adminIssueUserToken: (x) => ({ id: x.ownerId }),
  downloadFile: () => ({ key: "outputs/none.pdf" }),
  getConsolePage: () => ({ page: "keys" }),
};

/** A body the route's schema accepts, where the handler must be reached (another account's record). */
const VALID_BODY: Record<string, unknown> = {
  updateTeamMember: { role: "member" },
  updateWebhookEndpoint: { active: true },
};

const ownedPath = (route: AnyRoute) => fillPath(route, OWNED[route.id]?.(w.a) ?? {});
/** Ids that name nothing, so a call that passes auth changes no shared record. */
const missingPath = (route: AnyRoute) =>
  fillPath(route, { ...(OWNED[route.id]?.(w.a) ?? {}), ...Object.fromEntries(paramNames(route).map((n) => [n, `missing_${n}`])) });

const send = (route: AnyRoute, path: string, auth: Record<string, string> = {}) => callRoute(route, path, auth, VALID_BODY[route.id] ?? {});

async function refused(res: Response, status: number, code: string): Promise<void> {
  const body = await problem(res);
  expect(res.status, `${res.status} ${body.code}`).toBe(status);
  expect(body).toMatchObject({ status, code });
}

/** Past the auth layer: whatever the handler or validator says, it is not an auth refusal or a crash. */
async function admitted(res: Response): Promise<void> {
  const detail = res.headers.get("Content-Type")?.includes("problem+json") ? ((await res.clone().json()) as { code: string }).code : "";
  expect([401, 403], `${res.status} ${detail}`).not.toContain(res.status);
  expect(res.status, detail).toBeLessThan(500);
}

/** Another account's caller: a record of A's is 404 (not 403: its existence is not revealed); a list never shows A's ids. */
async function isolated(route: AnyRoute, auth: Record<string, string>): Promise<void> {
  const res = await send(route, ownedPath(route), auth);
  if (paramNames(route).length > 0) {
    // The 404 means something only if the record is there for its own account.
    if (route.method === "get") expect((await send(route, ownedPath(route), withToken(w.a.owner))).status).toBe(200);
    return refused(res, 404, "not_found");
  }
  expect(res.status).toBeLessThan(500);
  const text = await res.text();
  for (const id of [w.a.accountId, w.a.ownerId, w.a.adminId, w.a.memberId, w.a.keyId, w.a.endpointId, w.a.deliveryId, w.a.jobId]) {
    expect(text).not.toContain(id);
  }
}

function noCredentials(route: AnyRoute) {
  it("refuses a call without credentials with 401 unauthorized", async () => {
    await refused(await send(route, ownedPath(route)), 401, "unauthorized");
  });
}

function userContract(route: AnyRoute, permission: TeamPermission | null) {
  noCredentials(route);
  it("refuses a revoked API key with 401 invalid_credentials", async () => {
    await refused(await send(route, ownedPath(route), withKey(w.a.revokedKey)), 401, "invalid_credentials");
  });
  it("refuses a live API key, even of the account, with 403 forbidden", async () => {
    await refused(await send(route, missingPath(route), withKey(w.a.key)), 403, "forbidden");
  });
  it("hides account A's records from account B's owner", async () => {
    await isolated(route, withToken(w.b.token));
  });
  if (permission) {
    it(`refuses a member, whose role lacks ${permission}, with 403 permission_denied`, async () => {
      await refused(await send(route, ownedPath(route), withToken(w.a.member)), 403, "permission_denied");
    });
    it("admits the owner and an admin", async () => {
      await admitted(await send(route, missingPath(route), withToken(w.a.owner)));
      await admitted(await send(route, missingPath(route), withToken(w.a.admin)));
    });
  } else {
    it("admits every role, a member's too", async () => {
      await admitted(await send(route, missingPath(route), withToken(w.a.member)));
    });
  }
}

const lackingKeys = new Map<KeyPermission, string>();
async function keyLacking(permission: KeyPermission): Promise<string> {
  const known = lackingKeys.get(permission);
  if (known) return known;
  const key = (await createKey(w.a.owner, { permissions: KEY_PERMISSIONS.filter((p) => p !== permission) })).api_key;
  lackingKeys.set(permission, key);
  return key;
}

function callerContract(route: AnyRoute, permission: KeyPermission) {
  noCredentials(route);
  it("refuses a revoked API key with 401 invalid_credentials", async () => {
    await refused(await send(route, ownedPath(route), withKey(w.a.revokedKey)), 401, "invalid_credentials");
  });
  it(`refuses a key without the '${permission}' permission with 403 permission_denied`, async () => {
    await refused(await send(route, ownedPath(route), withKey(await keyLacking(permission))), 403, "permission_denied");
  });
  it("admits a key with the permission and every dashboard role", async () => {
    for (const auth of [withKey(w.a.key), withToken(w.a.owner), withToken(w.a.member)]) await admitted(await send(route, ownedPath(route), auth));
  });
  it("hides account A's records from account B's key and token", async () => {
    await isolated(route, withKey(w.b.key));
    await isolated(route, withToken(w.b.token));
  });
}

function operatorContract(route: AnyRoute) {
  noCredentials(route);
  it("refuses an account's dashboard token, its API key and a revoked key with 401 unauthorized", async () => {
    for (const auth of [withToken(w.a.owner), withKey(w.a.key), withKey(w.a.revokedKey), { Authorization: "Bearer not-the-operator-token" }]) {
      await refused(await send(route, ownedPath(route), auth), 401, "unauthorized");
    }
  });
  it("admits the operator token", async () => {
    await admitted(await send(route, ownedPath(route), operator));
  });
}

function publicContract(route: AnyRoute) {
  it("answers without credentials and reads none (a revoked key changes nothing)", async () => {
    const bare = await send(route, ownedPath(route));
    await admitted(bare);
    const withRevoked = await send(route, ownedPath(route), withKey(w.a.revokedKey));
    expect(withRevoked.status).toBe(bare.status);
  });
}

function contractOf(route: AnyRoute, cls: AuthClass): void {
  switch (cls.kind) {
    case "public":
      publicContract(route);
      break;
    case "jwt":
      userContract(route, null);
      break;
    case "team":
      userContract(route, cls.permission);
      break;
    case "key-or-jwt":
      callerContract(route, cls.permission);
      break;
    case "admin":
      operatorContract(route);
      break;
    default: {
      const unknown: never = cls;
      throw new Error(`no contract for ${JSON.stringify(unknown)}`);
    }
  }
}

const routes = ROUTES.map((r) => [`${r.method.toUpperCase()} ${r.path} (${r.auth})`, r] as const);

describe.each(routes)("route contract: %s", (_name, route) => {
  // Thrown while collecting: a route of an unknown class fails the file.
  contractOf(route, authClassOf(route.auth));
});

describe("route contract coverage", () => {
  it("knows every route's auth class and names every path parameter's record", () => {
    for (const route of ROUTES) {
      expect(() => authClassOf(route.auth), route.id).not.toThrow();
      if (paramNames(route).length > 0) expect(OWNED[route.id], `${route.id} has path parameters; say in OWNED what they name`).toBeDefined();
    }
  });
});
