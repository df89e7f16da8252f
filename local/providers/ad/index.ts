/** The local Active Directory (Samba AD DC), cached between runs and never run twice at once. */
export { lockSamba, SAMBA_LOCK_PATH, waitForSambaLock } from './lock.js';
export type { SambaLock } from './lock.js';
export { startAdDemo } from './demo.js';
export { adPopulation, AD_HOST_NAME, sambaCacheDir, sambaMissing, startSambaAd } from './samba.js';
export type { LocalSambaAd } from './samba.js';
export { AD_TOMBSTONE_READER_DN, tombstoneReader } from './tombstone-reader.js';
export {
  accountNames,
  AD_DOMAIN_DN,
  AD_PEOPLE_DN,
  AD_READER_DN,
  AD_REALM,
  UAC_DISABLED,
  UAC_NORMAL,
  UNUSUAL_PEOPLE,
} from './seed.js';
