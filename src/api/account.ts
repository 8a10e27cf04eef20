import { defineRoute } from "../http/route";
import { accountView, loadAccount } from "./accounts";

const getAccount = defineRoute({
  id: "getAccount",
  method: "get",
  path: "/api/v1/account",
  tags: ["account"],
  summary: "The caller's account and its balance",
  auth: "key-or-jwt:read",
  responses: { 200: { description: "The account", schema: accountView } },
  handler: async (c, { caller }) => c.json(await loadAccount(c.env, caller.accountId)),
});

export const ACCOUNT_ROUTES = [getAccount];
