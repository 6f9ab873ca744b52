import { InvalidToolInputError } from '../../errors/index.js';
import { validateJsonSchema } from '../../tools/input/json-schema-validator.js';
import { parseToolArguments } from '../../tools/input/parse-tool-arguments.js';
import type { JsonSchema } from '../../tools/json-schema.js';
import type { ToolCallback } from '../../tools/tool-callback.js';

/** One business domain of the generated library. */
export interface ToolLibraryDomain {
  /** Prefix of the domain's tool names and the tools' `category`, e.g. `'finance'`. */
  readonly name: string;
  /** The system the domain's tools talk to, used in descriptions. */
  readonly system: string;
  /** How many tools the domain contributes. */
  readonly toolCount: number;
  /** `key:label:idPrefix:field1,field2` per entity, e.g. `'invoice:invoice:INV:customer_id,amount_due'`. */
  readonly entities: readonly string[];
}

/** The seed article's six domains: 230 tools in all. */
export const TOOL_LIBRARY_DOMAINS: readonly ToolLibraryDomain[] = [
  {
    name: 'crm',
    system: 'CRM',
    toolCount: 40,
    entities: [
      'customer_account:customer account:ACC:company_name,industry',
      'contact:contact:CON:email,phone_number',
      'lead:sales lead:LEAD:source,estimated_value',
      'opportunity:sales opportunity:OPP:stage,close_date',
      'support_ticket:support ticket:TCK:priority,subject',
      'campaign:marketing campaign:CMP:channel,budget',
      'quote:price quote:QUO:discount_percent,valid_until',
      'meeting_note:meeting note:MTG:attendees,summary',
      'contract_renewal:contract renewal:REN:renewal_date,term_months',
      'customer_feedback:customer feedback entry:FBK:rating,comment',
    ],
  },
  {
    name: 'devops',
    system: 'deployment platform',
    toolCount: 38,
    entities: [
      'deployment:deployment:DEP:service_name,version',
      'build:CI build:BLD:branch,commit_sha',
      'incident:production incident:INC:severity,affected_service',
      'service_health:service health report:SVC:service_name,region',
      'feature_flag:feature flag:FLG:flag_key,rollout_percent',
      'alert_rule:monitoring alert rule:ALR:metric,threshold',
      'log_query:log query:LOG:query_text,time_range',
      'cluster:Kubernetes cluster:CLU:node_count,region',
      'release_note:release note:REL:version,highlights',
      'on_call_shift:on-call shift:ONC:engineer,start_time',
    ],
  },
  {
    name: 'finance',
    system: 'finance system',
    toolCount: 40,
    entities: [
      'invoice:invoice:INV:customer_id,amount_due',
      'payment:payment:PAY:invoice_id,amount',
      'budget:department budget:BUD:department,fiscal_year',
      'expense_report:expense report:EXP:employee_id,total_amount',
      'purchase_order:purchase order:PO:vendor_id,line_items',
      'vendor:vendor:VEN:vendor_name,payment_terms',
      'ledger_entry:general ledger entry:GL:account_code,amount',
      'tax_filing:tax filing:TAX:jurisdiction,period',
      'refund:customer refund:RFD:payment_id,reason',
      'exchange_rate:currency exchange rate:FX:base_currency,quote_currency',
    ],
  },
  {
    name: 'hr',
    system: 'HR system',
    toolCount: 36,
    entities: [
      'employee_record:employee record:EMP:full_name,department',
      'pto_balance:PTO balance:PTO:employee_id,leave_type',
      'open_requisition:open job requisition:REQ:job_title,hiring_manager',
      'candidate:job candidate:CAN:full_name,requisition_id',
      'performance_review:performance review:REV:employee_id,review_period',
      'payroll_run:payroll run:PR:pay_period,country',
      'benefits_enrollment:benefits enrollment:BEN:employee_id,plan_name',
      'training_course:training course:TRN:course_title,duration_hours',
      'onboarding_checklist:onboarding checklist:ONB:employee_id,start_date',
      'org_chart:org chart entry:ORG:manager_id,team_name',
    ],
  },
  {
    name: 'logistics',
    system: 'logistics system',
    toolCount: 40,
    entities: [
      'shipment:shipment:SHP:origin,destination',
      'tracking_event:shipment tracking event:TRK:shipment_id,location',
      'warehouse_stock:warehouse stock level:STK:sku,warehouse_id',
      'carrier:freight carrier:CAR:carrier_name,service_level',
      'delivery_route:delivery route:RTE:driver_id,stops',
      'return_request:return request:RMA:order_id,reason',
      'pickup:carrier pickup:PCK:address,pickup_date',
      'customs_declaration:customs declaration:CUS:hs_code,declared_value',
      'fleet_vehicle:fleet vehicle:VEH:plate_number,capacity_kg',
      'freight_quote:freight quote:FRQ:weight_kg,destination',
    ],
  },
  {
    name: 'security',
    system: 'security console',
    toolCount: 36,
    entities: [
      'access_review:access review:ACR:application,reviewer',
      'vulnerability:vulnerability finding:VUL:cve_id,asset_id',
      'security_alert:security alert:SEC:source,severity',
      'user_session:user session:SES:user_id,ip_address',
      'api_key:API key:KEY:owner,scopes',
      'audit_log:audit log entry:AUD:actor,action',
      'firewall_rule:firewall rule:FWR:port,protocol',
      'phishing_report:phishing report:PHI:reporter_email,sender',
      'certificate:TLS certificate:CRT:domain,expires_on',
      'mfa_device:MFA device:MFA:user_id,device_type',
    ],
  },
];

interface Verb {
  readonly key: string;
  describe(label: string, system: string): string;
  schema(entity: Entity): JsonSchema;
}

interface Entity {
  readonly key: string;
  readonly label: string;
  readonly idPrefix: string;
  readonly fields: readonly string[];
}

const idProperty = (entity: Entity): Record<string, JsonSchema> => ({
  [`${entity.key}_id`]: {
    type: 'string',
    description: `Identifier of the ${entity.label}, e.g. ${entity.idPrefix}-1001`,
  },
});

const fieldProperties = (entity: Entity): Record<string, JsonSchema> =>
  Object.fromEntries(
    entity.fields.map((field) => [
      field,
      {
        type:
          field.endsWith('_percent') || field.endsWith('amount') || field.endsWith('_kg')
            ? 'number'
            : 'string',
        description: `The ${field.replaceAll('_', ' ')} of the ${entity.label}`,
      },
    ]),
  );

const objectSchema = (properties: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

const VERBS: readonly Verb[] = [
  {
    key: 'lookup',
    describe: (label, system) =>
      `Look up a single ${label} in the ${system} by its identifier and return its details.`,
    schema: (entity) => objectSchema(idProperty(entity), [`${entity.key}_id`]),
  },
  {
    key: 'list',
    describe: (label, system) =>
      `List ${label} records in the ${system}, optionally filtered by status, newest first.`,
    schema: () =>
      objectSchema(
        {
          status: { type: 'string', description: 'Only records with this status' },
          limit: { type: 'integer', description: 'Maximum number of records to return' },
        },
        [],
      ),
  },
  {
    key: 'create',
    describe: (label, system) =>
      `Create a new ${label} in the ${system} and return its identifier.`,
    schema: (entity) => objectSchema(fieldProperties(entity), [...entity.fields]),
  },
  {
    key: 'update',
    describe: (label, system) => `Update the fields of an existing ${label} in the ${system}.`,
    schema: (entity) =>
      objectSchema({ ...idProperty(entity), ...fieldProperties(entity) }, [`${entity.key}_id`]),
  },
  {
    key: 'cancel',
    describe: (label, system) =>
      `Cancel or archive a ${label} in the ${system}, recording a reason.`,
    schema: (entity) =>
      objectSchema(
        { ...idProperty(entity), reason: { type: 'string', description: 'Why it is cancelled' } },
        [`${entity.key}_id`],
      ),
  },
];

function parseEntity(spec: string): Entity {
  const [key = '', label = '', idPrefix = '', fields = ''] = spec.split(':');
  return { key, label, idPrefix, fields: fields.split(',') };
}

/** One generated tool's definition and its domain. */
export interface GeneratedToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly domain: string;
}

/**
 * The definitions of the seed article's library: for each domain, every entity's `lookup` tool,
 * then every entity's `list`, `create`, `update`, `cancel` tools, until the domain's count is
 * reached (crm 40, devops 38, finance 40, hr 36, logistics 40, security 36 = 230). Deterministic:
 * the same list, in the same order, every time.
 */
export function generateToolSpecs(
  domains: readonly ToolLibraryDomain[] = TOOL_LIBRARY_DOMAINS,
): GeneratedToolSpec[] {
  const specs: GeneratedToolSpec[] = [];
  for (const domain of domains) {
    const entities = domain.entities.map(parseEntity);
    let made = 0;
    for (const verb of VERBS) {
      for (const entity of entities) {
        if (made === domain.toolCount) break;
        specs.push({
          name: `${domain.name}_${verb.key}_${entity.key}`,
          description: verb.describe(entity.label, domain.system),
          inputSchema: verb.schema(entity),
          domain: domain.name,
        });
        made++;
      }
    }
  }
  return specs;
}

/**
 * The library as callable tools. Each tool validates its arguments against its schema and answers
 * with a JSON record naming the domain system and echoing the arguments, e.g.
 * `{"system":"finance system","tool":"finance_lookup_invoice","status":"found","invoice_id":"INV-1001"}`.
 * Each tool's `metadata.category` is its domain.
 */
export function generateToolLibrary(
  domains: readonly ToolLibraryDomain[] = TOOL_LIBRARY_DOMAINS,
): ToolCallback[] {
  const systems = new Map(domains.map((domain) => [domain.name, domain.system]));
  return generateToolSpecs(domains).map((spec) => ({
    definition: { name: spec.name, description: spec.description, inputSchema: spec.inputSchema },
    metadata: { category: spec.domain },
    async call(input: string): Promise<string> {
      const parsed = parseToolArguments(input);
      if (!parsed.ok)
        throw new InvalidToolInputError({ toolName: spec.name, issues: parsed.issues });
      const issues = validateJsonSchema(spec.inputSchema, parsed.value);
      if (issues.length > 0) throw new InvalidToolInputError({ toolName: spec.name, issues });
      const status = spec.name.includes('_lookup_') ? 'found' : 'done';
      return JSON.stringify({
        system: systems.get(spec.domain),
        tool: spec.name,
        status,
        ...parsed.value,
      });
    },
  }));
}
