import {
  AUDIT_ACTIONS,
  EventCode,
  KEY_SETTING_RANGES,
  MSG_DOMAIN_RULES,
  type TAuditAction,
  type TKeySetting,
  type TSupervisorSettingRow,
  ZKeyHash,
  type ZSetSupervisorSettingsRequest,
} from '@tlprt/contract';
import type { z } from 'zod';
import { toTeam } from '../../../access/audience.js';
import type { TeamAccess } from '../../../access/team-access.js';
import type { UsableKey } from '../../../access/usable-keys.js';
import { type AuditEntry, recordAudit } from '../../../audit/record.js';
import type { AppContext } from '../../../context.js';
import type { Db } from '../../../db/index.js';
import type { SettingLayer } from '../../../db/schema.js';
import { publishAll } from '../../../events/publish.js';
import { badRequest, notFound } from '../../../http/errors.js';
import { assertKeyChangeable, assertKeyEditable } from '../keys/policy.js';
import type { KeyView } from '../keys/queries.js';
import { keyOf } from '../keys/service.js';
import { findDomain } from '../queries.js';
import {
  assertValidSettings,
  effectiveSettings,
  effectiveValue,
  SETTING_IDS,
  supervisorOverride,
  supervisorRows,
  tableOf,
} from './layers.js';
import { listLayerValues, ownerLayerValues, upsertLayerValues } from './queries.js';

type CustomerSetting = TKeySetting;

async function liveDomainId(db: Db, teamId: number, domainId: number): Promise<number> {
  const d = await findDomain(db, teamId, domainId);
  if (!d) throw notFound();
  return d.id;
}

/**
 * The domain whose layer applies: a domain key's own domain (another id in the path is 404), or for
 * a key of every domain the requested domain of the team (0 / empty: none).
 */
async function domainContext(
  db: Db,
  teamId: number,
  k: KeyView,
  requested: number | null,
): Promise<number | null> {
  if (k.domain_id !== null) {
    if (requested && requested !== k.domain_id) throw notFound();
    return k.domain_id;
  }
  return requested ? liveDomainId(db, teamId, requested) : null;
}

async function customerView(
  db: Db,
  teamId: number,
  domainId: number | null,
  keyId: number,
): Promise<CustomerSetting[]> {
  const table = tableOf(await listLayerValues(db, teamId, { domainId, keyId }));
  return SETTING_IDS.map((id) => {
    const own = table.get(id)?.key;
    return {
      id,
      currentValue: own && own.override === 1 ? own.value : null,
      // What the key gets when neither it nor a supervisor sets anything.
      defaultValue: KEY_SETTING_RANGES[id]?.default ?? 0,
      // Any supervisor override wins over the key's own value (layers.ts): the customer is shown it.
      supervisorValue: supervisorOverride(table, id),
    };
  });
}

export async function readKeySettings(
  ctx: AppContext,
  access: TeamAccess,
  domainId: number,
  keyId: number,
): Promise<CustomerSetting[]> {
  const teamId = access.team.id;
  const k = await keyOf(ctx.db, teamId, keyId);
  return customerView(ctx.db, teamId, await domainContext(ctx.db, teamId, k, domainId), keyId);
}

/** POST .../set {settings: [{id, value}]}: the key layer; a value overrides, null (empty) inherits. */
export async function writeKeySettings(
  ctx: AppContext,
  access: TeamAccess,
  domainId: number,
  keyId: number,
  settings: Array<{ id: number; value: number | null }>,
): Promise<CustomerSetting[]> {
  const teamId = access.team.id;
  const input = settings.map((s) => ({ ...s, override: s.value === null ? 0 : 1 }));
  assertValidSettings(input);
  const { events, context } = await ctx.db.transaction().execute(async (trx) => {
    const k = await keyOf(trx, teamId, keyId);
    const context = await domainContext(trx, teamId, k, domainId);
    assertKeyEditable(k);
    await upsertLayerValues(trx, teamId, { layer: 'key', domainId: 0, keyId }, input, ctx.now());
    return {
      context,
      events: [await toTeam(trx, access, { code: EventCode.KeyChanged, created_key: keyId })],
    };
  });
  await publishAll(ctx, events);
  return customerView(ctx.db, teamId, context, keyId);
}

/** GET .../domain/key/{keyId}/get_supervisor?domainId=: one row per setting with every layer. */
export async function readSupervisorSettings(
  ctx: AppContext,
  access: TeamAccess,
  keyId: number,
  domainId: number | null,
): Promise<TSupervisorSettingRow[]> {
  const teamId = access.team.id;
  const k = await keyOf(ctx.db, teamId, keyId);
  const context = await domainContext(ctx.db, teamId, k, domainId);
  const table = tableOf(await listLayerValues(ctx.db, teamId, { domainId: context, keyId }));
  return supervisorRows(table, context, keyId);
}

/** POST .../set_supervisor_by_{key|team|domain}: writes that layer's values and override flags. */
export async function writeSupervisorSettings(
  ctx: AppContext,
  access: TeamAccess,
  layer: SettingLayer,
  body: z.output<typeof ZSetSupervisorSettingsRequest>,
): Promise<void> {
  const { actor, team } = access;
  const teamId = team.id;
  const input = body.settings.map((s) => ({ id: s.id, value: s.value, override: s.settingOverwrite }));
  if (layer === 'key' && !body.keyId)
    throw badRequest(MSG_DOMAIN_RULES.keyIdRequired, { keyId: MSG_DOMAIN_RULES.keyIdRequired });
  if (layer === 'domain' && !body.domainId)
    throw badRequest(MSG_DOMAIN_RULES.domainIdRequired, { domainId: MSG_DOMAIN_RULES.domainIdRequired });
  assertValidSettings(input);
  const events = await ctx.db.transaction().execute(async (trx) => {
    /** Writes the layer of `owner` and records it with the values it replaces. */
    const write = async (
      owner: { layer: SettingLayer; domainId: number; keyId: number },
      target: AuditEntry['target'],
      action: TAuditAction,
    ) => {
      const before = await ownerLayerValues(trx, teamId, owner);
      await upsertLayerValues(trx, teamId, owner, input, ctx.now());
      await recordAudit(trx, actor, ctx.now(), {
        teamId,
        action,
        target,
        oldValue: Object.fromEntries(input.map((s) => [s.id, before[s.id] ?? null])),
        newValue: Object.fromEntries(input.map((s) => [s.id, { value: s.value, override: s.override }])),
      });
    };
    if (layer === 'key') {
      const keyId = body.keyId ?? 0;
      const k = await keyOf(trx, teamId, keyId);
      assertKeyChangeable(k);
      await write(
        { layer: 'supervisor_key', domainId: 0, keyId },
        { type: 'key', id: keyId, label: k.name || k.key_hash },
        AUDIT_ACTIONS.settingsKey,
      );
      return [await toTeam(trx, access, { code: EventCode.KeyChanged, created_key: keyId })];
    }
    if (layer === 'domain') {
      const domainId = await liveDomainId(trx, teamId, body.domainId ?? 0);
      const d = await findDomain(trx, teamId, domainId);
      await write(
        { layer, domainId, keyId: 0 },
        { type: 'domain', id: domainId, label: d?.host ?? '' },
        AUDIT_ACTIONS.settingsDomain,
      );
      return [];
    }
    await write(
      { layer, domainId: 0, keyId: 0 },
      { type: 'team', id: teamId, label: access.team.name },
      AUDIT_ACTIONS.settingsTeam,
    );
    return [];
  });
  await publishAll(ctx, events);
}

/**
 * Without a token: the effective values of a usable key
 * (access/usable-keys.ts); else 404.
 */
export async function publicKeySettings(ctx: AppContext, keyHash: string): Promise<Record<string, number>> {
  const k = ZKeyHash.safeParse(keyHash).success ? await ctx.keys.findNow(keyHash) : null;
  if (!k) throw notFound();
  const table = tableOf(await listLayerValues(ctx.db, k.teamId, { domainId: k.domainId, keyId: k.id }));
  return effectiveSettings(table);
}

/** One setting's effective value of a usable key, for the parts that obey it (the tracker's matching). */
export async function usableKeySetting(db: Db, key: UsableKey, settingId: number): Promise<number> {
  const table = tableOf(await listLayerValues(db, key.teamId, { domainId: key.domainId, keyId: key.id }));
  return effectiveValue(table, settingId);
}
