import type { IntegrationInstallation } from '../entities/integration-installation.entity.ts';
import type { User } from '../entities/user.entity.ts';

/** Whoever is calling: a person, or an integration acting inside the one organization it is installed in. */
export type Actor =
  | { kind: 'user'; user: User }
  | { kind: 'installation'; installation: IntegrationInstallation; organizationId: string };
