/** What the signed-in user may do on the domains screens, decided once by MyDomains from the policy. */
export interface DomainPermissions {
  manageDomains: boolean;
  manageKeys: boolean;
  supervisor: boolean;
  /** The team is suspended: everything is view-only. */
  frozen: boolean;
}
