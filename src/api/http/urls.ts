import type { Config } from '../../../config/env.ts';

/** Builds the `urls.*` fields of every resource from PUBLIC_URL and APP_URL. */
export class Urls {
  private readonly api: string;
  private readonly app: string;

  constructor(config: Pick<Config, 'publicUrl' | 'appUrl'>) {
    this.api = `${config.publicUrl}/v1`;
    this.app = config.appUrl;
  }

  /** Absolute API URL of a path below /v1. */
  location(path: string): string {
    return `${this.api}${path}`;
  }

  /** Where a person would open the resource in the app. */
  appLink(path: string): string {
    return `${this.app}${path}`;
  }

  /** Absolute URL on the service root (outside /v1), e.g. SAML endpoints. */
  root(path: string): string {
    return `${this.api.slice(0, -'/v1'.length)}${path}`;
  }
}
