import type { PageSpec } from './page-tree.ts';

export type TemplateId = 'getting-started' | 'api-reference' | 'knowledge-base';

/**
 * Built-in templates: page trees added after a space's existing pages. None takes content
 * references yet, so `params.contentRefs` must be empty (documented in the README).
 */
export const TEMPLATES: Record<TemplateId, { title: string; pages: () => PageSpec[] }> = {
  'getting-started': {
    title: 'Getting started',
    pages: () => [
      doc('Introduction', '# Introduction\n\nWhat this product does and who it is for.\n\n## Next steps\n\n- [Quickstart](quickstart.md)\n- [FAQ](faq.md)\n'),
      doc('Quickstart', '# Quickstart\n\nInstall, configure and run your first example in five minutes.\n\n## Install\n\n```sh\nnpm install example\n```\n'),
      doc('FAQ', '# FAQ\n\n## Who can use it?\n\nEveryone in your organization.\n'),
    ],
  },
  'api-reference': {
    title: 'API reference',
    pages: () => [
      doc('Overview', '# API overview\n\nBase URL, versioning and conventions.\n'),
      doc('Authentication', '# Authentication\n\nSend `Authorization: Bearer <token>` with every request.\n'),
      { kind: 'group', title: 'Endpoints', children: [doc('Resources', '# Resources\n\nOne section per resource.\n')] },
    ],
  },
  'knowledge-base': {
    title: 'Knowledge base',
    pages: () => [
      doc('Welcome', '# Welcome\n\nFind answers by topic or search.\n'),
      doc('Troubleshooting', '# Troubleshooting\n\n## Something does not work\n\nCheck the status page first.\n'),
    ],
  },
};

export const TEMPLATE_IDS = Object.keys(TEMPLATES) as TemplateId[];

function doc(title: string, markdown: string): PageSpec {
  return { kind: 'document', title, markdown };
}
