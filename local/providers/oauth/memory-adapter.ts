/**
 * The local authorization server's storage: one `Map` per model, living as long as the process. It is what
 * `oidc-provider` would use by default, named here so the provider knows the choice is deliberate (its default
 * prints a production warning on every start). Client-credentials JWT access tokens are never stored; this
 * holds the few models the provider still writes (sessions, grants, replay detection).
 */
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';

interface Entry {
  payload: AdapterPayload;
  expiresAt: number;
}

/** Adapters for one provider: each model name gets its own map. */
export function memoryAdapters(clock: () => number = Date.now): AdapterFactory {
  const models = new Map<string, Map<string, Entry>>();
  return (name: string): Adapter => {
    const entries = models.get(name) ?? new Map<string, Entry>();
    models.set(name, entries);
    const live = (id: string): AdapterPayload | undefined => {
      const entry = entries.get(id);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= clock()) {
        entries.delete(id);
        return undefined;
      }
      return entry.payload;
    };
    const findBy = (field: 'userCode' | 'uid', value: string): AdapterPayload | undefined => {
      for (const [id, entry] of entries) if (entry.payload[field] === value) return live(id);
      return undefined;
    };
    return {
      upsert: (id, payload, expiresIn) => {
        entries.set(id, {
          payload,
          expiresAt: expiresIn === undefined ? Infinity : clock() + expiresIn * 1000,
        });
        return Promise.resolve();
      },
      find: (id) => Promise.resolve(live(id)),
      findByUserCode: (userCode) => Promise.resolve(findBy('userCode', userCode)),
      findByUid: (uid) => Promise.resolve(findBy('uid', uid)),
      consume: (id) => {
        const payload = live(id);
        if (payload !== undefined) payload.consumed = Math.floor(clock() / 1000);
        return Promise.resolve();
      },
      destroy: (id) => {
        entries.delete(id);
        return Promise.resolve();
      },
      revokeByGrantId: (grantId) => {
        for (const [id, entry] of entries) if (entry.payload.grantId === grantId) entries.delete(id);
        return Promise.resolve();
      },
    };
  };
}
