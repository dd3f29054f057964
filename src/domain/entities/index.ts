import { AgentInstructionsSchema } from './agent-instructions.entity.ts';
import { ApiTokenSchema } from './api-token.entity.ts';
import { BlobTombstoneSchema } from './blob-tombstone.entity.ts';
import { ChangeRequestContributorSchema } from './change-request-contributor.entity.ts';
import { ChangeRequestReviewSchema } from './change-request-review.entity.ts';
import { ChangeRequestSchema } from './change-request.entity.ts';
import { CollectionSchema } from './collection.entity.ts';
import { CommentReactionSchema } from './comment-reaction.entity.ts';
import { CommentSchema } from './comment.entity.ts';
import { RequestedReviewerSchema } from './requested-reviewer.entity.ts';
import { ConversationClusteringSchema } from './conversation-clustering.entity.ts';
import { ConversationIssueSchema } from './conversation-issue.entity.ts';
import { ConversationSchema } from './conversation.entity.ts';
import { IssueClusterSchema } from './issue-cluster.entity.ts';
import { FileEntrySchema } from './file-entry.entity.ts';
import { GitImportSchema } from './git-import.entity.ts';
import { ImportRunSchema } from './import-run.entity.ts';
import { OpenApiSpecSchema } from './openapi-spec.entity.ts';
import { PdfExportSchema } from './pdf-export.entity.ts';
import { GlossaryEntrySchema } from './glossary-entry.entity.ts';
import { TranslationPageSchema } from './translation-page.entity.ts';
import { TranslationRunSchema } from './translation-run.entity.ts';
import { TranslationSchema } from './translation.entity.ts';
import { OpenApiSpecVersionSchema } from './openapi-spec-version.entity.ts';
import { InstanceSettingSchema } from './instance-setting.entity.ts';
import { PageBodySchema } from './page-body.entity.ts';
import { PageNodeSchema } from './page-node.entity.ts';
import { ContentPermissionSchema } from './content-permission.entity.ts';
import { IntegrationInstallationSchema } from './integration-installation.entity.ts';
import { InviteLinkSchema } from './invite-link.entity.ts';
import { MemberSchema } from './member.entity.ts';
import { OrganizationSchema } from './organization.entity.ts';
import { OutboxEntrySchema } from './outbox-entry.entity.ts';
import { RevisionSchema } from './revision.entity.ts';
import { ScheduleTickSchema } from './schedule-tick.entity.ts';
import { SearchSectionSchema } from './search-section.entity.ts';
import { SamlProviderSchema } from './saml-provider.entity.ts';
import { SamlRequestSchema } from './saml-request.entity.ts';
import { SpaceSchema } from './space.entity.ts';
import { TeamMembershipSchema } from './team-membership.entity.ts';
import { TeamSchema } from './team.entity.ts';
import { UserSchema } from './user.entity.ts';

/** Every entity, listed explicitly: no folder scanning at start-up. */
export const entities = [
  UserSchema,
  OrganizationSchema,
  MemberSchema,
  TeamSchema,
  TeamMembershipSchema,
  InviteLinkSchema,
  SamlProviderSchema,
  SamlRequestSchema,
  AgentInstructionsSchema,
  IntegrationInstallationSchema,
  ApiTokenSchema,
  OutboxEntrySchema,
  CollectionSchema,
  SpaceSchema,
  RevisionSchema,
  ChangeRequestSchema,
  ChangeRequestContributorSchema,
  ChangeRequestReviewSchema,
  RequestedReviewerSchema,
  ContentPermissionSchema,
  PageBodySchema,
  PageNodeSchema,
  FileEntrySchema,
  InstanceSettingSchema,
  SearchSectionSchema,
  GitImportSchema,
  ImportRunSchema,
  OpenApiSpecSchema,
  OpenApiSpecVersionSchema,
  BlobTombstoneSchema,
  ScheduleTickSchema,
  ConversationSchema,
  IssueClusterSchema,
  ConversationIssueSchema,
  ConversationClusteringSchema,
  TranslationSchema,
  TranslationRunSchema,
  TranslationPageSchema,
  GlossaryEntrySchema,
  CommentSchema,
  CommentReactionSchema,
  PdfExportSchema,
];
