// Generated from the service's OpenAPI document by clients/typescript/scripts/generate.ts; do not edit.
export interface paths {
    "/.well-known/tas-export-keys.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public keys that sign evidentiary bundles
         * @description A JWKS of Ed25519 keys (kty OKP), each with its kid; keys rotated out stay listed so older bundles still verify. An extension of the contract (issue 14, DESIGN.md section 3).
         *
         *     No key needed.
         */
        get: operations["getExportKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Browsable API reference
         * @description No key needed.
         */
        get: operations["getDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Build, tools, gateway and database health
         * @description No key needed.
         */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI 3.1 document
         * @description No key needed.
         */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the audit trail
         * @description Every call and analyst action with its cost, oldest first.
         *
         *     Requires scope `admin`.
         */
        get: operations["listAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/audit/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the tenant's audit trail for a period, with its chain and seals
         * @description An extension of the control plane (issue 50). NDJSON: a header line, the seals of the days in the period (the key's tenant and mode have one hash chain, sealed once a day), then every row they cover with its link, in chain order. `tas audit verify --file` checks it offline, with no other tenant's data.
         *
         *     Requires scope `admin`.
         */
        get: operations["exportAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's keys of this mode
         * @description Newest first, revoked ones included; never a secret, only its public prefix. An extension of the control plane (issue 18).
         *
         *     Requires scope `admin`.
         */
        get: operations["listKeys"];
        put?: never;
        /**
         * Mint an API key
         * @description The secret is shown once and stored only as a salted hash (rule I11).
         *
         *     Requires scope `admin`.
         */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Requires scope `admin`.
         */
        delete: operations["revokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/keys/{key_id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an API key
         * @description Mints the successor (same name, scopes and expiry; its secret shown once) and ends the old key after `grace_seconds`. An extension of the control plane (issue 18).
         *
         *     Requires scope `admin`.
         */
        post: operations["rotateKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/policies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List every policy version, current first
         * @description Requires scope `admin`.
         */
        get: operations["listPolicies"];
        put?: never;
        /**
         * Publish a new policy version
         * @description Changes labels from now on; never a score or a published assessment.
         *
         *     Requires scope `admin`.
         */
        post: operations["publishPolicy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's webhooks of this mode
         * @description Oldest first, deleted ones left out; never a secret. An extension of the control plane (issue 18).
         *
         *     Requires scope `admin`.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register a webhook endpoint
         * @description Requires scope `admin`.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one webhook
         * @description Never its secret. An extension of the control plane (issue 18).
         *
         *     Requires scope `admin`.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @description No further deliveries, queued retries included; its delivery log stays readable. An extension of the control plane (issue 18).
         *
         *     Requires scope `admin`.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change a webhook
         * @description Only the fields given change; a new `url` passes rule W01 again. `enabled: false` pauses deliveries, `true` resumes them. An extension of the control plane (issue 18).
         *
         *     Requires scope `admin`.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/v1/admin/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the delivery log of a webhook
         * @description Every attempt, oldest first (the last 1,000): when, which event, the HTTP status, our neutral error and the next retry. An extension of the control plane (issue 18).
         *
         *     Requires scope `admin`.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{webhook_id}/deliveries/{message_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver one message again
         * @description Queues the message (a `message_id` of the delivery log) for a new round of attempts on the retry schedule, with the same `webhook-id`. 409 when the endpoint is disabled or the message predates the log keeping its event. An extension of the control plane (issue 18).
         *
         *     Requires scope `admin`.
         */
        post: operations["redeliverWebhookMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{webhook_id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a webhook's signing secret
         * @description The new secret is in this answer and nowhere else. During `grace_seconds` each delivery carries two signatures, one per secret, in `webhook-signature`. An extension of the control plane (issue 18).
         *
         *     Requires scope `admin`.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's cases
         * @description An extension of the contract (issue 38): the contract reads a case only by its id. Newest first, the key's tenant and mode only, in pages (`limit`, then `after` the last `case_id`); `state` keeps one state.
         *
         *     Requires scope `cases`.
         */
        get: operations["listCases"];
        put?: never;
        /**
         * Open a case
         * @description Requires an investigative (KYB) tenant and an authorization record (rules C01, I13).
         *
         *     Requires scope `cases`.
         */
        post: operations["createCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{case_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a case
         * @description Requires scope `cases`.
         */
        get: operations["getCase"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{case_id}/assertions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enter an analyst's judgement as evidence
         * @description Requires scope `cases`.
         */
        post: operations["createCaseAssertion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{case_id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a case
         * @description Requires scope `cases`.
         */
        post: operations["closeCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{case_id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream case events (SSE)
         * @description Events: `CaseChanged`, `AssessmentRevised` (expansions), `MonitorTriggered` (case monitors).
         *
         *     Requires scope `cases`.
         */
        get: operations["streamCaseEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{case_id}/events/tickets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a one-time ticket for a case's event stream
         * @description An extension of the contract (issue 40). For a browser EventSource, which cannot send an Authorization header: call this with the key (from the page's own backend, or with a key the page holds), then open `events_url`, which carries `?ticket=`. A ticket names one stream, opens it once and expires within a minute (TAS_STREAM_TICKET_TTL_SECONDS), so a URL written to a log or a browser history opens nothing. An API key in the URL (`?access_token=`) is refused unless the operator allows it.
         *
         *     Requires scope `cases`.
         */
        post: operations["mintCaseEventsTicket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{case_id}/expand": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Expand one budgeted hop of attribution
         * @description With `human_gate` the candidates come back first (as connections) and nothing is spent until `choose` picks some.
         *
         *     Requires scope `cases`.
         */
        post: operations["expandCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{case_id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Export a signed-off case as an evidentiary bundle
         * @description Requires scope `cases`.
         */
        post: operations["exportCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{case_id}/exports/{export_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an export of a case
         * @description Its status, and the download URL once ready. An extension of the contract (issue 14): SPEC.md gives no way to learn when an export is ready.
         *
         *     Requires scope `cases`.
         */
        get: operations["getCaseExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{case_id}/exports/{export_id}/bundle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the evidentiary bundle of an export
         * @description The tar.gz bundle (DESIGN.md section 3) once the export is ready; 409 naming its status before. An extension of the contract (issue 14).
         *
         *     Requires scope `cases`.
         */
        get: operations["downloadCaseExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{case_id}/graph": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the graph of a case
         * @description Requires scope `cases`.
         */
        get: operations["getCaseGraph"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{case_id}/hold": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Place a legal hold on a case
         * @description Requires scope `cases`.
         */
        post: operations["holdCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{case_id}/intake": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take in a bounded manifest of presentations and material
         * @description Each item answers for itself (accepted, duplicate, rejected); the manifest becomes one case event; nothing is spent.
         *
         *     Requires scope `cases`.
         */
        post: operations["intakeCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{case_id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add or remove a case member
         * @description Requires scope `cases`.
         */
        post: operations["changeCaseMembers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{case_id}/release": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Lift the legal hold of a case
         * @description Requires scope `cases`.
         */
        post: operations["releaseCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{case_id}/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Review a case: sign off or request changes
         * @description Requires scope `cases`.
         */
        post: operations["reviewCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{case_id}/timeline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the timeline of a case
         * @description Requires scope `cases`.
         */
        get: operations["getCaseTimeline"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/entities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find the tenant's entities by a presented value
         * @description An extension of the contract (issue 38): the contract reads an entity only by its id. The value is normalised as entity resolution normalises an inquiry's presentations (`country` reads a phone number as `claim.country` does), and only the key's tenant and mode are searched. An entity resolved on the value (`anchor`) comes first, then those it was presented beside (`link`), oldest first. A type not registered to the tenant is refused (rule I15).
         *
         *     Requires scope `entities`.
         */
        get: operations["findEntities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/entities/{entity_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a resolved subject
         * @description Requires scope `entities`.
         */
        get: operations["getEntity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/entities/{entity_id}/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an entity's assessment ledger
         * @description Every assessment in order, append-only, with the inputs that reproduce it.
         *
         *     Requires scope `entities`.
         */
        get: operations["getEntityLedger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness, for a keyed caller
         * @description Any valid key.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inquiries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Assess a subject for a purpose at a stake
         * @description Returns the score, its interval and the tenant label within `stake.deadline_ms`. `findings` appear when the policy shows them and the key has the `findings` scope. Only `mode=sync` is served (rule I16); a missing or disallowed purpose is refused with rule I13.
         *
         *     Requires scope `inquiries`.
         */
        post: operations["createInquiry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inquiries/{inquiry_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an inquiry and its latest assessment
         * @description Requires scope `inquiries`.
         */
        get: operations["getInquiry"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inquiries/{inquiry_id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream revisions of an inquiry (SSE)
         * @description Events: `AssessmentIssued`, `AssessmentRevised`, `InquiryConcluded`.
         *
         *     Requires scope `inquiries`.
         */
        get: operations["streamInquiryEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inquiries/{inquiry_id}/events/tickets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a one-time ticket for an inquiry's event stream
         * @description An extension of the contract (issue 40). For a browser EventSource, which cannot send an Authorization header: call this with the key (from the page's own backend, or with a key the page holds), then open `events_url`, which carries `?ticket=`. A ticket names one stream, opens it once and expires within a minute (TAS_STREAM_TICKET_TTL_SECONDS), so a URL written to a log or a browser history opens nothing. An API key in the URL (`?access_token=`) is refused unless the operator allows it.
         *
         *     Requires scope `inquiries`.
         */
        post: operations["mintInquiryEventsTicket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/material": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Declare material: inline text or bytes to upload
         * @description Audio and video require `consent_ref` (rule D36); `retention_mode=transient` stores no bytes (rule D35).
         *
         *     Requires scope `material`.
         */
        post: operations["createMaterial"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/material/{material_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read material status and derivation
         * @description Requires scope `material`.
         */
        get: operations["getMaterial"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/material/{material_id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Upload the declared bytes of material (the signed URL)
         * @description The `upload.url` of a declaration by hash: its `token` is the authorisation (no key), it works once and until `upload.expires_at`. The bytes stream (at most 64 MiB); a body whose SHA-256 or length differs from the declaration is refused with 422 and nothing of it is kept. A worker then extracts from the bytes; read the material until its status is `extracted` or `failed`. 403: not a valid URL for this material; 409: already used; 410: expired. An extension of the contract (issue 14): SPEC.md names the signed upload URL but not its shape.
         *
         *     No key needed.
         */
        put: operations["uploadMaterialContent"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/material/{material_id}/extraction": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read what was extracted from material
         * @description Requires scope `material`.
         */
        get: operations["getMaterialExtraction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open a standing watch on a subject
         * @description Requires scope `monitors`.
         */
        post: operations["createMonitor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitors/{monitor_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a monitor and its last assessment
         * @description Requires scope `monitors`.
         */
        get: operations["getMonitor"];
        put?: never;
        post?: never;
        /**
         * End a watch and its schedule
         * @description Requires scope `monitors`.
         */
        delete: operations["deleteMonitor"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitors/{monitor_id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream monitor triggers (SSE)
         * @description Events: `MonitorTriggered`.
         *
         *     Requires scope `monitors`.
         */
        get: operations["streamMonitorEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitors/{monitor_id}/events/tickets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a one-time ticket for a monitor's event stream
         * @description An extension of the contract (issue 40). For a browser EventSource, which cannot send an Authorization header: call this with the key (from the page's own backend, or with a key the page holds), then open `events_url`, which carries `?ticket=`. A ticket names one stream, opens it once and expires within a minute (TAS_STREAM_TICKET_TTL_SECONDS), so a URL written to a log or a browser history opens nothing. An API key in the URL (`?access_token=`) is refused unless the operator allows it.
         *
         *     Requires scope `monitors`.
         */
        post: operations["mintMonitorEventsTicket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/observations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record testimony about a subject
         * @description Testimony enters with its provenance class and never sets a score.
         *
         *     Requires scope `observations`.
         */
        post: operations["createObservation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/observations/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record up to 100 observations at once
         * @description Requires scope `observations`.
         */
        post: operations["createObservationBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/outcomes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record what happened after a decision
         * @description References an assessment of the same tenant and mode (rule A01); feeds calibration.
         *
         *     Requires scope `outcomes`.
         */
        post: operations["createOutcome"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/outcomes/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record up to 100 outcomes at once
         * @description Requires scope `outcomes`.
         */
        post: operations["createOutcomeBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/registry/artifact-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the artifact types the tenant may present
         * @description Requires scope `registry`.
         */
        get: operations["listArtifactTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/registry/intents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the intents the tenant may use
         * @description Requires scope `registry`.
         */
        get: operations["listIntents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/registry/purposes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the purposes the tenant may declare
         * @description Requires scope `registry`.
         */
        get: operations["listPurposes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open a live intake session (WebSocket)
         * @description Connect to `ws_url` offering the subprotocols `tas.v1` and `tas.token.<token>` (browsers cannot set an Authorization header on a WebSocket); the token is single-use and expires at `expires_at`. Frames are JSON text: `presentation`, `text`, `observation`, `claim`, `close`; each gets `ack` or `refused` (with the rule), and `assessment.issued`, `assessment.revised`, `findings.added` and `session.closed` come back on the same socket. The protocol, limits and close codes are in docs/sessions.md. Purpose and intent are admitted as for an inquiry (rules I13, I14).
         *
         *     Requires scope `sessions`.
         */
        post: operations["openSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{session_id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a session and apply its retention mode
         * @description Requires scope `sessions`.
         */
        post: operations["closeSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    AssessmentRevised: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * AssessmentRevised delivery
         * @description An EventEnvelope with `type` AssessmentRevised. Answer 2xx within 10 s; anything else is retried on the published schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, with jitter; a longer `Retry-After` is honoured). 410 disables the endpoint.
         */
        post: operations["deliverAssessmentRevised"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    CaseChanged: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * CaseChanged delivery
         * @description An EventEnvelope with `type` CaseChanged. Answer 2xx within 10 s; anything else is retried on the published schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, with jitter; a longer `Retry-After` is honoured). 410 disables the endpoint.
         */
        post: operations["deliverCaseChanged"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    InquiryConcluded: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * InquiryConcluded delivery
         * @description An EventEnvelope with `type` InquiryConcluded. Answer 2xx within 10 s; anything else is retried on the published schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, with jitter; a longer `Retry-After` is honoured). 410 disables the endpoint.
         */
        post: operations["deliverInquiryConcluded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    MonitorTriggered: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * MonitorTriggered delivery
         * @description An EventEnvelope with `type` MonitorTriggered. Answer 2xx within 10 s; anything else is retried on the published schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, with jitter; a longer `Retry-After` is honoured). 410 disables the endpoint.
         */
        post: operations["deliverMonitorTriggered"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description A check that failed or did not answer. Part of the result, never an HTTP error. */
        Absence: {
            about: string;
            about_type: string;
            /** @enum {string} */
            kind: "timeout" | "error" | "no_data" | "refused" | "budget" | "unregistered";
            /** @description Stated reason with every source name removed. */
            reason: string;
        };
        /** @description Score and honest interval from the admitted evidence through one function (the methodology), with the tenant label. */
        Assessment: {
            /**
             * Format: date-time
             * @description Moment the evidence was current.
             */
            as_of: string;
            /** Format: uuid */
            assessment_id: string;
            entity_id: string | null;
            evidence: components["schemas"]["EvidenceSummary"];
            /** @description Upper bound of the interval. */
            high: number;
            /** Format: uuid */
            inquiry_id: string;
            /** @description Tenant's policy label; null when no policy labels it. */
            label: components["schemas"]["Label"] | null;
            /** @description Lower bound of the interval. */
            low: number;
            methodology_version: string;
            /** @description True when the stopping rule was not yet met (`pre_transaction` only). */
            preliminary: boolean;
            score: number;
        };
        /** @description The first assessment of an inquiry. */
        AssessmentIssued: {
            assessment: components["schemas"]["Assessment"];
            /** Format: uuid */
            inquiry_id: string;
            /** @enum {string} */
            status: "accepted" | "reasoning" | "preliminary" | "concluded" | "rejected";
        };
        /** @description A later assessment of the same inquiry (or of a case expansion), appended to the ledger; the earlier one is unchanged. */
        AssessmentRevised: {
            assessment: components["schemas"]["Assessment"];
            case_id: string | null;
            /** Format: uuid */
            inquiry_id: string;
            /** Format: uuid */
            previous_assessment_id: string;
            /** @enum {string} */
            status: "accepted" | "reasoning" | "preliminary" | "concluded" | "rejected";
        };
        /** @description One audited call or analyst action, with its cost. */
        AuditEntryOut: {
            /** @description The operationId of the call (or the analyst action). */
            action: string;
            /** Format: uuid */
            audit_id: string;
            cost_amount: number | null;
            cost_currency: string | null;
            /** @description The key that made the call; null for anonymous calls and the service's own work. */
            key_id: string | null;
            /** Format: date-time */
            occurred_at: string;
            principal: string;
            /** @description The purpose the call declared, if any. */
            purpose: string | null;
            /** @description The rule that refused the call, if one did. */
            rule: string | null;
            /** @description The HTTP status the call was answered with. */
            status: number;
            target_id: string | null;
            target_kind: string | null;
        };
        /** @description Where an extracted thing sits in its material. */
        BindingOut: {
            /** Format: uuid */
            binding_id: string;
            confidence: number;
            /** @description Free-form: text offsets `{start, end}`, `{page}`, a region `{page, x, y, w, h}`, a time span `{start_ms, end_ms}`. */
            locator: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            locator_kind: "text" | "document" | "image" | "audio" | "video" | "structured";
            target_id: string;
            /** @enum {string} */
            target_kind: "artifact" | "fingerprint" | "signal" | "claim";
        };
        /** @description An analyst's judgement entered as evidence (provenance analyst_asserted). */
        CaseAssertionIn: {
            /**
             * @description Handling the fact requires: C0 open, C1 personal, C2 special category.
             * @default C1
             * @enum {string}
             */
            data_class?: "C0" | "C1" | "C2";
            /** @enum {string} */
            disposition: "supports" | "weakens" | "neutral";
            /** @description Findings the judgement rests on. */
            finding_ids?: string[];
            /** @description Material the judgement rests on. */
            material_ids?: string[];
            /** Format: date-time */
            observed_at: string;
            statement: string;
            subject: components["schemas"]["Subject"];
        };
        /** @description The record that authorises the investigation (rule C01). */
        CaseAuthorization: {
            issued_by: string;
            /** @enum {string} */
            kind: "court_order" | "warrant" | "regulatory_request" | "engagement" | "internal_mandate" | "other";
            /** @description Identifier of the authorising record. */
            reference: string;
            /** Format: date-time */
            valid_until?: string;
        };
        /** @description A case's spending in the tenant's budget units. Intake spends nothing; each chosen expansion is one costed hop. */
        CaseBudget: {
            limit: number;
            remaining: number;
            spent: number;
        };
        /** @description A command moved a case; the case state is the fold of these events. */
        CaseChanged: {
            /** Format: uuid */
            case_id: string;
            /** @enum {string} */
            change: "opened" | "member_added" | "member_removed" | "intake" | "expanded" | "expansion_requested" | "expansion_chosen" | "expansion_refused" | "assertion" | "held" | "released" | "review_requested_changes" | "signed_off" | "export_requested" | "exported" | "closed";
            legal_hold: boolean;
            /** @description Who did it: the key name or analyst id, never a secret. */
            principal: string;
            /** @enum {string} */
            state: "open" | "in_review" | "signed_off" | "closed";
            summary: string;
        };
        /** @description Opens a case. */
        CaseCreate: {
            authorization: components["schemas"]["CaseAuthorization"];
            /** @description Spending limit in the tenant's budget units; defaults to the tenant's case budget. */
            budget?: number;
            description?: string;
            /** @description Registered purpose id (rule I13). */
            purpose: string;
            /** @description The first subject of the case. */
            subject?: components["schemas"]["Subject"];
            title: string;
        };
        /** @description One budgeted hop of attribution from a seed, or the choice of candidates shown earlier under human_gate. */
        CaseExpandIn: {
            /** @description Candidates chosen from an earlier gated expansion. */
            choose?: {
                connection_ids: string[];
                /** Format: uuid */
                inquiry_id: string;
            };
            /**
             * @description Show the candidates first; nothing is spent until one is chosen.
             * @default false
             */
            human_gate?: boolean;
            /** @description Registered intent of the hop; required with seed. */
            intent?: string;
            /** @description Cap for this hop; defaults to what remains of the case budget. */
            max_cost?: number;
            /** @description Relationship types to follow; all registered ones when absent. */
            relations?: string[];
            seed?: components["schemas"]["Subject"];
            /**
             * @description Provider tier: t0 inline computed, t1 network look-ups, t2 paid providers.
             * @default t2
             * @enum {string}
             */
            tier_ceiling?: "t0" | "t1" | "t2";
        };
        /** @description An evidentiary bundle being built: manifest of hashes, timeline, graph, assessments, audit chain excerpt, signature. */
        CaseExportOut: {
            /** Format: uuid */
            case_id: string;
            download_url: string | null;
            expires_at: string | null;
            /** Format: uuid */
            export_id: string;
            format: string;
            manifest_sha256: string | null;
            /** Format: date-time */
            requested_at: string;
            /** @enum {string} */
            status: "queued" | "building" | "ready" | "failed";
        };
        /** @description A relation between two nodes, with its computed weight. */
        CaseGraphEdge: {
            edge_id: string;
            from: string;
            provenance_class: string;
            relation: string;
            to: string;
            weight: number;
        };
        /** @description A value or entity in the case graph. */
        CaseGraphNode: {
            entity_id: string | null;
            label: string;
            node_id: string;
            provenance_class: string;
            /** @description Artifact type, or `entity`. */
            type: string;
        };
        /** @description Nodes and edges of a case, with types, weights and provenance classes. */
        CaseGraphOut: {
            /** Format: uuid */
            case_id: string;
            edges: components["schemas"]["CaseGraphEdge"][];
            /** Format: date-time */
            generated_at: string;
            nodes: components["schemas"]["CaseGraphNode"][];
        };
        /** @description Places or lifts a legal hold. */
        CaseHoldIn: {
            reason: string;
            /** @description Identifier of the hold order. */
            reference?: string;
        };
        /** @description A person working the case. */
        CaseMember: {
            /** Format: date-time */
            added_at: string;
            principal: string;
            /** @enum {string} */
            role: "lead" | "analyst" | "reviewer" | "observer";
        };
        /** @description Adds a member to a case, or removes one. */
        CaseMemberIn: {
            /**
             * @default add
             * @enum {string}
             */
            action?: "add" | "remove";
            /** @description The analyst's id in the tenant's own directory. */
            principal: string;
            /**
             * @default analyst
             * @enum {string}
             */
            role?: "lead" | "analyst" | "reviewer" | "observer";
        };
        /** @description A case as derived from its event log. */
        CaseOut: {
            authorization: components["schemas"]["CaseAuthorization"];
            budget: components["schemas"]["CaseBudget"];
            /** Format: uuid */
            case_id: string;
            closed_at: string | null;
            /** Format: date-time */
            created_at: string;
            entity_ids: string[];
            events_url: string;
            /** @description Finding recorded at close. */
            finding: string | null;
            legal_hold: boolean;
            members: components["schemas"]["CaseMember"][];
            purpose: string;
            /** @description Sequence of the latest case event. */
            sequence: number;
            /** @enum {string} */
            state: "open" | "in_review" | "signed_off" | "closed";
            title: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description A reviewer's decision; `sign_off` is what export requires. */
        CaseReviewIn: {
            note?: string;
            /** @enum {string} */
            outcome: "sign_off" | "request_changes";
        };
        /** @description One of the tenant's cases as the list shows it; `GET /v1/cases/{case_id}` reads the whole case. */
        CaseSummary: {
            /** Format: uuid */
            case_id: string;
            /** Format: date-time */
            created_at: string;
            legal_hold: boolean;
            purpose: string;
            /** @enum {string} */
            state: "open" | "in_review" | "signed_off" | "closed";
            title: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description Cases, newest first. */
        CaseSummaryList: components["schemas"]["CaseSummary"][];
        /** @description What the subject says about itself. Checked for consistency against the presentations; never taken as true. */
        Claim: {
            /** @description ISO 3166-1 alpha-2, upper case. */
            country?: string;
            email?: string;
            name?: string;
            organisation?: string;
            phone?: string;
            website?: string;
        };
        /** @description An edge in the tenant's graph between the subject's values and others. */
        Connection: {
            connection_id: string;
            /** @description Caller's own value where it was theirs, else its type. */
            from_label: string;
            from_type: string;
            reason: string;
            /** @description Registered relationship type, for example `shares_registrant`. */
            relation: string;
            to_label: string;
            to_type: string;
            weight: number;
        };
        /** @description How much of the possible checking was done. */
        Coverage: {
            checks_answered: number;
            checks_run: number;
            checks_unanswered: number;
            gaps?: components["schemas"]["CoverageGap"][];
            /**
             * @description Provider tier: t0 inline computed, t1 network look-ups, t2 paid providers.
             * @enum {string}
             */
            tier_ceiling: "t0" | "t1" | "t2";
        };
        /** @description Questions the inquiry could not ask: which, at which tier, how many, and why. Neither kind is an absence: it does not widen the interval. */
        CoverageGap: {
            count: number;
            /** @description The question that was not asked, for example `domain_age`. */
            kind: string;
            /**
             * @description `beyond_tier_ceiling`: the inquiry's `tier_ceiling` put it out of reach; `switched_off`: this deployment does not run the check (a network check with no resolver or RDAP service configured). Absent on assessments issued before 2026-11-25, where it means `beyond_tier_ceiling`.
             * @enum {string}
             */
            reason?: "beyond_tier_ceiling" | "switched_off";
            /**
             * @description Provider tier: t0 inline computed, t1 network look-ups, t2 paid providers.
             * @enum {string}
             */
            tier: "t0" | "t1" | "t2";
        };
        /** @description The entities carrying a value, anchors first, then the oldest links. */
        EntityFindOut: {
            entities: components["schemas"]["EntityMatch"][];
            /** @description The value as the service normalised it, the form entities are matched on. */
            normalised: string;
            type: string;
        };
        /** @description An entity of the tenant that carries the value; `GET /v1/entities/{entity_id}` reads it. */
        EntityMatch: {
            /**
             * Format: uuid
             * @description The entity as it now is: the survivor when the one that carried the value was merged.
             */
            entity_id: string;
            entity_url: string;
            /** Format: date-time */
            first_seen_at: string;
            /**
             * @description `anchor`: the entity is resolved on this value, and no other entity is. `link`: the value was presented beside the entity's anchor; several entities may share it.
             * @enum {string}
             */
            held_as: "anchor" | "link";
        };
        /** @description A resolved subject as the tenant may see it. */
        EntityOut: {
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            entity_id: string;
            latest_assessment: components["schemas"]["Assessment"] | null;
            ledger_url: string;
            /** @description The tenant's own values, normalised. */
            presentations: components["schemas"]["Presentation"][];
        };
        /** @description One event of a stream: its type, its position in the stream and its payload. */
        EventEnvelope: {
            data: components["schemas"]["AssessmentIssued"];
            /** Format: uuid */
            event_id: string;
            /** Format: date-time */
            occurred_at: string;
            /** @description Position in the stream; the SSE `id:` and the `after` cursor. */
            sequence: number;
            /** @enum {string} */
            stream: "inquiry" | "case" | "monitor" | "session";
            /** Format: uuid */
            stream_id: string;
            /** @constant */
            type: "AssessmentIssued";
        } | {
            data: components["schemas"]["AssessmentRevised"];
            /** Format: uuid */
            event_id: string;
            /** Format: date-time */
            occurred_at: string;
            /** @description Position in the stream; the SSE `id:` and the `after` cursor. */
            sequence: number;
            /** @enum {string} */
            stream: "inquiry" | "case" | "monitor" | "session";
            /** Format: uuid */
            stream_id: string;
            /** @constant */
            type: "AssessmentRevised";
        } | {
            data: components["schemas"]["InquiryConcluded"];
            /** Format: uuid */
            event_id: string;
            /** Format: date-time */
            occurred_at: string;
            /** @description Position in the stream; the SSE `id:` and the `after` cursor. */
            sequence: number;
            /** @enum {string} */
            stream: "inquiry" | "case" | "monitor" | "session";
            /** Format: uuid */
            stream_id: string;
            /** @constant */
            type: "InquiryConcluded";
        } | {
            data: components["schemas"]["MonitorTriggered"];
            /** Format: uuid */
            event_id: string;
            /** Format: date-time */
            occurred_at: string;
            /** @description Position in the stream; the SSE `id:` and the `after` cursor. */
            sequence: number;
            /** @enum {string} */
            stream: "inquiry" | "case" | "monitor" | "session";
            /** Format: uuid */
            stream_id: string;
            /** @constant */
            type: "MonitorTriggered";
        } | {
            data: components["schemas"]["CaseChanged"];
            /** Format: uuid */
            event_id: string;
            /** Format: date-time */
            occurred_at: string;
            /** @description Position in the stream; the SSE `id:` and the `after` cursor. */
            sequence: number;
            /** @enum {string} */
            stream: "inquiry" | "case" | "monitor" | "session";
            /** Format: uuid */
            stream_id: string;
            /** @constant */
            type: "CaseChanged";
        };
        /** @description Counts of the admitted evidence. Never contains source names or raw content. */
        EvidenceSummary: {
            /** @description Counts by provenance class. */
            by_provenance_class: {
                [key: string]: number;
            };
            /** @description Counts by banded trust of the source. */
            by_trust_band: {
                high: number;
                low: number;
                medium: number;
            };
            contradictions: number;
            failed_signals: number;
            /**
             * Format: date-time
             * @description Equal to as_of when there is no evidence.
             */
            newest_observed_at: string;
            /**
             * Format: date-time
             * @description Equal to as_of when there is no evidence.
             */
            oldest_observed_at: string;
            signals: number;
        };
        /** @description An Ed25519 public key (JWK, RFC 8037) that signs evidentiary bundles. */
        ExportKey: {
            /** @constant */
            alg: "EdDSA";
            /** @constant */
            crv: "Ed25519";
            /** @description Signs bundles made before this moment: its retirement. Absent while it is the active key. */
            exp?: number;
            /** @description The id a bundle's manifest names. */
            kid: string;
            /** @constant */
            kty: "OKP";
            /** @description Signs bundles made from this moment (seconds since the epoch): its creation. */
            nbf?: number;
            /** @description Revoked: no bundle verifies under it, whatever its date. */
            revoked_at?: string;
            /** @constant */
            use: "sig";
            /** @description The public key, base64url. */
            x: string;
        };
        /** @description The JWKS at /.well-known/tas-export-keys.json: every key that ever signed a bundle, newest first. */
        ExportKeySet: {
            keys: components["schemas"]["ExportKey"][];
        };
        /** @description One thing extracted from material (an identifier, a fingerprint, a signal, a claim) with its binding. */
        ExtractedItem: {
            binding: components["schemas"]["BindingOut"];
            /** @description Artifact type for artifacts, else the kind of fingerprint, signal or claim. */
            type: string;
            /** @description The tenant's own extracted value; null where only a fingerprint is kept. */
            value: string | null;
        };
        /** @description The things extracted from a piece of material, each with its binding. */
        ExtractionOut: {
            extractor_version: string | null;
            items: components["schemas"]["ExtractedItem"][];
            material_id: string;
            outcomes_only: boolean;
            /** @enum {string} */
            status: "awaiting_upload" | "received" | "extracting" | "extracted" | "failed" | "discarded";
        };
        /** @description One thing found, with every source name removed. */
        Finding: {
            /** @description The caller's own presented value concerned, when it was theirs. */
            about: string;
            about_type: string;
            /**
             * @description Handling the fact requires: C0 open, C1 personal, C2 special category.
             * @enum {string}
             */
            data_class: "C0" | "C1" | "C2";
            /** @description `supports`, `weakens` or `neutral`. */
            disposition?: string;
            finding_id: string;
            /** @description Sort of check, for example `account_age`; names the question, never the source. */
            kind?: string;
            /** Format: date-time */
            observed_at: string;
            /** @description How it came to be known, for example `third_party`, `computed`. */
            provenance_class: string;
            statement: string;
            /**
             * @description Extension (trust-method/2 and /3): how diagnostic the finding is, declared by its check for this kind and disposition as the strength its measured likelihood ratio supports; under trust-method/3 weak 1, moderate 3, strong 8 observations (each about a likelihood ratio of 2, 4, 9). Absent on neutral findings, which are not scored. See docs/checks.md.
             * @enum {string}
             */
            strength?: "weak" | "moderate" | "strong";
            /** @enum {string} */
            trust_band: "high" | "medium" | "low";
        };
        /** @description What was found, what could not be found, and connections. Present when the tenant may see findings. */
        Findings: {
            absences?: components["schemas"]["Absence"][];
            assessment_id: string;
            connections?: components["schemas"]["Connection"][];
            coverage: components["schemas"]["Coverage"];
            findings?: components["schemas"]["Finding"][];
            /** Format: date-time */
            generated_at: string;
            inquiry_id: string;
            /** @description Echo of what was asked. */
            subject: components["schemas"]["Presentation"][];
        };
        /** @description Running build, tools discovered, whether the gateway schema answers and whether the database is reachable. Nothing about any tenant. */
        Healthz: {
            [key: string]: unknown;
        };
        /** @description The request was refused (422). Do not retry it unchanged. */
        HTTPValidationError: {
            detail: components["schemas"]["ValidationIssue"][];
        };
        /** @description The inquiry stopped reasoning; `assessment` is its final one. */
        InquiryConcluded: {
            assessment: components["schemas"]["Assessment"];
            /** Format: date-time */
            concluded_at: string;
            /** Format: uuid */
            inquiry_id: string;
        };
        /** @description How much should this subject be trusted for this purpose at this stake. Request body of POST /v1/inquiries. */
        InquiryRequest: {
            /** @description Caller testimony attached inline. */
            context?: components["schemas"]["ObservationIn"][];
            /** @description Replays the first answer for the same key and body (rule I17). */
            idempotency_key?: string;
            /** @description Registered intent id, for example `pre_transaction` (rule I14). */
            intent: string;
            /** @description Material already ingested, to reason over. */
            material_ids?: string[];
            /**
             * @description Only `sync` is served; `async` and `stream` are refused (rule I16).
             * @default sync
             * @enum {string}
             */
            mode?: "sync" | "async" | "stream";
            /** @description Registered purpose id; required on every call (rule I13). */
            purpose: string;
            /**
             * @description Whether findings are written up as a report; the reply states which renderer ran.
             * @default none
             * @enum {string}
             */
            render?: "none" | "template" | "model";
            /** @description BCP 47 language tag of the report, for example `en`, `pt-BR`. */
            render_lang?: string;
            stake: components["schemas"]["Stake"];
            subject: components["schemas"]["Subject"];
            /**
             * @description Highest provider tier this inquiry may use (rule I19).
             * @default t2
             * @enum {string}
             */
            tier_ceiling?: "t0" | "t1" | "t2";
        };
        /** @description An inquiry and its latest assessment. */
        InquiryResponse: {
            assessment: components["schemas"]["Assessment"];
            /** @description SSE stream of revisions while reasoning. */
            events_url?: string;
            findings?: components["schemas"]["Findings"];
            inquiry_id: string;
            report?: components["schemas"]["Report"];
            /** @enum {string} */
            status: "accepted" | "reasoning" | "preliminary" | "concluded" | "rejected";
        };
        /** @description One presentation, or one piece of declared material whose bytes follow by hash. */
        IntakeItem: {
            /** @constant */
            kind: "presentation";
            presentation: components["schemas"]["Presentation"];
            /** @description The caller's own reference for the item, echoed in the answer. */
            ref: string;
        } | {
            /** @description Required for audio and video (rule D36). */
            consent_ref?: string;
            /**
             * @description Handling the fact requires: C0 open, C1 personal, C2 special category.
             * @default C1
             * @enum {string}
             */
            data_class?: "C0" | "C1" | "C2";
            /** @constant */
            kind: "material";
            /** @enum {string} */
            material_kind: "text" | "document" | "image" | "audio" | "video";
            /** @description IANA media type, for example `application/pdf`. */
            media_type: string;
            ref: string;
            /** @description SHA-256 of the bytes, lower-case hex. */
            sha256: string;
            size_bytes: number;
        };
        /** @description How one manifest item was taken. */
        IntakeItemResult: {
            reason: string | null;
            ref: string;
            /** @description Rule id that rejected the item. */
            rule: string | null;
            /** @enum {string} */
            status: "accepted" | "duplicate" | "rejected";
            /** @description Entity or material id the item landed on. */
            target_id: string | null;
            /** @description Where to PUT the bytes of an accepted material item. */
            upload: components["schemas"]["UploadTarget"] | null;
        };
        /** @description A bounded manifest; it becomes one case event and spends nothing. Open-ended intake uses a session opened with case_id. */
        IntakeManifest: {
            items: components["schemas"]["IntakeItem"][];
            note?: string;
        };
        /** @description Answer to an intake manifest: each item for itself. */
        IntakeOut: {
            accepted: number;
            /** Format: uuid */
            case_id: string;
            duplicate: number;
            /** Format: uuid */
            intake_id: string;
            items: components["schemas"]["IntakeItemResult"][];
            rejected: number;
            /** @description The case event the manifest became. */
            sequence: number;
        };
        /** @description Mints an API key with the given scopes. */
        KeyCreate: {
            /** Format: date-time */
            expires_at?: string;
            /**
             * @description Test keys see only test data; live keys only live data.
             * @enum {string}
             */
            mode: "live" | "test";
            name: string;
            scopes: ("inquiries" | "findings" | "observations" | "outcomes" | "material" | "cases" | "monitors" | "sessions" | "entities" | "registry" | "admin")[];
        };
        /** @description An API key. `secret` is present only in the answer that minted it; it is stored as a salted hash and cannot be recovered. */
        KeyOut: {
            /** Format: date-time */
            created_at: string;
            expires_at: string | null;
            /** Format: uuid */
            key_id: string;
            /** @enum {string} */
            mode: "live" | "test";
            name: string;
            /** @description Public start of the key, for recognising it in logs, for example `tas_live_ab12`. */
            prefix: string;
            scopes: ("inquiries" | "findings" | "observations" | "outcomes" | "material" | "cases" | "monitors" | "sessions" | "entities" | "registry" | "admin")[];
            secret?: string;
        };
        /** @description Rotates a key: a new key with the same name, scopes and expiry, and the old one ended after a grace period. */
        KeyRotate: {
            /**
             * @description How long the old key keeps working, so deployments can switch over; 0 revokes it at once.
             * @default 0
             */
            grace_seconds?: number;
        };
        /** @description One of the tenant's keys as the list shows it: never its secret, only its public prefix. Extension: not in SPEC.md's control plane table. */
        KeySummary: {
            /** Format: date-time */
            created_at: string;
            expires_at: string | null;
            /** Format: uuid */
            key_id: string;
            /** @description When the key last authenticated a call, to the minute; null if never. */
            last_used_at: string | null;
            /** @enum {string} */
            mode: "live" | "test";
            name: string;
            /** @description Public start of the key, for example `tas_live_ab12`. */
            prefix: string;
            /** @description When the key was revoked; null while it is valid. */
            revoked_at: string | null;
            scopes: ("inquiries" | "findings" | "observations" | "outcomes" | "material" | "cases" | "monitors" | "sessions" | "entities" | "registry" | "admin")[];
        };
        /** @description The tenant's own policy label and the version of the policy that applied it. */
        Label: {
            policy_version: number;
            value: string;
        };
        /** @description One entry of an entity's assessment ledger. */
        LedgerEntryOut: {
            assessment: components["schemas"]["Assessment"];
            /** Format: uuid */
            entry_id: string;
            inputs: components["schemas"]["LedgerInputs"];
            /** Format: date-time */
            recorded_at: string;
            sequence: number;
        };
        /** @description One admitted evidence item, with the fields the methodology function reads and the evidence summary counts. Neutral items are never scored; they are counted in the summary (`signals`, by provenance class and trust band, the observed range). Entries recorded before the ledger kept neutral items list the scored ones only. */
        LedgerEvidenceItem: {
            /** @enum {string} */
            disposition: "supports" | "weakens" | "neutral";
            /** Format: date-time */
            observed_at: string;
            provenance_class: string;
            /**
             * @description Present on every scored trust-method/2 and trust-method/3 item (the version, not the item, decides its weight: v3 weak 1, moderate 3, strong 8; v2 weak 0.5, moderate 1, strong 2); absent on trust-method/1 items and on neutral items.
             * @enum {string}
             */
            strength?: "weak" | "moderate" | "strong";
            /** @enum {string} */
            trust_band: "high" | "medium" | "low";
        };
        /** @description Everything the methodology function and the evidence summary need to reproduce the assessment, in stored order. */
        LedgerInputs: {
            absences: number;
            /** Format: date-time */
            as_of: string;
            /** @description The replaceable reference data the evidence was read from (a popularity list, a sanctions list), as `name:file@sha256-prefix`; absent when none was read. `tas score` does not need it: it names the data an answer used after an operator has changed it. */
            data_snapshots?: string[];
            evidence: components["schemas"]["LedgerEvidenceItem"][];
            /**
             * @description The version `tas score` applies to these inputs.
             * @enum {string}
             */
            methodology_version: "trust-method/1" | "trust-method/2" | "trust-method/3";
        };
        /** @description Liveness of the service, as string pairs (for example `status: ok`). */
        Liveness: {
            [key: string]: string;
        };
        /** @description Declares material: inline `text`, or the `sha256` and `size_bytes` of bytes to upload to the returned URL. */
        MaterialCreate: {
            case_id?: string;
            /** @description Required for audio and video (rule D36). */
            consent_ref?: string;
            /**
             * @description Declared C2 material is extracted to outcomes only.
             * @default C1
             * @enum {string}
             */
            data_class?: "C0" | "C1" | "C2";
            /** @enum {string} */
            kind: "text" | "document" | "image" | "audio" | "video";
            /** @description IANA media type, for example `application/pdf`. */
            media_type: string;
            /** @description Registered purpose id (rule I13). */
            purpose: string;
            /**
             * @description `transient`: raw content is processed and never stored (rule D35).
             * @default standard
             * @enum {string}
             */
            retention_mode?: "standard" | "transient";
            /** @description SHA-256 of the bytes, lower-case hex. */
            sha256?: string;
            size_bytes?: number;
            /** @description Who the material is about, when known. */
            subject?: components["schemas"]["Subject"];
            /** @description Inline content, for kind `text` only. */
            text?: string;
        };
        /** @description What was derived from the material and by which extractor. */
        MaterialDerivation: {
            /** @description False under transient retention: only the hash is kept. */
            bytes_stored: boolean;
            extracted_at: string | null;
            extractor_version: string | null;
            /** @description Extracted items (see the extraction). */
            items: number;
            /** @description True for C2 material: extracted to outcomes only. */
            outcomes_only: boolean;
        };
        /** @description Declared material, its status and derivation. */
        MaterialOut: {
            case_id: string | null;
            /** Format: date-time */
            created_at: string;
            /**
             * @description Handling the fact requires: C0 open, C1 personal, C2 special category.
             * @enum {string}
             */
            data_class: "C0" | "C1" | "C2";
            derivation: components["schemas"]["MaterialDerivation"];
            /** @description Why extraction gave up, when `status` is `failed`: the bytes disagree with the declared type, no extractor reads the type, the file is corrupt or encrypted, it expands past the limits, or extraction ran out of time. */
            failure_reason: ("media_type_mismatch" | "unsupported_media_type" | "corrupt" | "encrypted" | "too_large" | "too_many_pages" | "timeout" | "extractor_failed") | null;
            /** @enum {string} */
            kind: "text" | "document" | "image" | "audio" | "video";
            material_id: string;
            media_type: string;
            /**
             * @description `transient`: raw content is processed and never stored (rule D35).
             * @enum {string}
             */
            retention_mode: "standard" | "transient";
            sha256: string | null;
            size_bytes: number | null;
            /** @enum {string} */
            status: "awaiting_upload" | "received" | "extracting" | "extracted" | "failed" | "discarded";
            /** Format: date-time */
            updated_at: string;
            /** @description Where to PUT the bytes: only in the 201 answer to a declaration by hash (the URL's secret is kept only as a hash, so it is never shown again); null otherwise. */
            upload: components["schemas"]["UploadTarget"] | null;
        };
        /** @description Opens a standing watch on a subject. */
        MonitorCreate: {
            cadence_seconds: number;
            /**
             * Format: uuid
             * @description Makes this a case monitor: its events also go to the case stream.
             */
            case_id?: string;
            /** @description Registered intent id (rule I14). */
            intent: string;
            /** @description Registered purpose id (rule I13). */
            purpose: string;
            stake: components["schemas"]["Stake"];
            subject: components["schemas"]["Subject"];
            triggers: components["schemas"]["MonitorTriggers"];
        };
        /** @description A monitor and its last assessment. */
        MonitorOut: {
            cadence_seconds: number;
            case_id: string | null;
            /** Format: date-time */
            created_at: string;
            events_url: string;
            intent: string;
            last_assessment: components["schemas"]["Assessment"] | null;
            /** @description When a rescan last ran to its end, changed or not; null before the first. */
            last_checked_at: string | null;
            /** Format: uuid */
            monitor_id: string;
            /** @description Null once closed. */
            next_run_at: string | null;
            purpose: string;
            stake: components["schemas"]["Stake"];
            /** @enum {string} */
            state: "active" | "rescanning" | "closed";
            subject: components["schemas"]["Subject"];
            triggers: components["schemas"]["MonitorTriggers"];
            /** @description Rescans whose answer equalled the last assessment (score, interval, label and evidence counts): they append no ledger entry and notify no one; the stream shows each as a `MonitorChecked` signal. */
            unchanged_rescans: number;
        };
        /** @description A monitor's rescan met one of its triggers. */
        MonitorTriggered: {
            assessment: components["schemas"]["Assessment"];
            case_id: string | null;
            /** Format: uuid */
            monitor_id: string;
            previous_assessment: components["schemas"]["Assessment"] | null;
            reasons: ("label_change" | "score_below" | "score_above" | "score_moves_by" | "width_above")[];
        };
        /** @description When a rescan is announced. At least one trigger is set. */
        MonitorTriggers: {
            /** @description The tenant's label changed. */
            label_change?: boolean;
            /** @description The score rose above this value. */
            score_above?: number;
            /** @description The score fell below this value. */
            score_below?: number;
            /** @description The score moved at least this far from the last announced one. */
            score_moves_by?: number;
            /** @description The interval (high - low) widened beyond this. */
            width_above?: number;
        };
        /** @description Testimony about a subject. It enters with its provenance class and never sets a score. */
        ObservationIn: {
            /** @description Required when provenance_class is analyst_asserted (rule D37). */
            case_id?: string;
            /** @description Required when provenance_class is self_attested (rule D36). */
            consent_ref?: string;
            /**
             * @description Handling the fact requires: C0 open, C1 personal, C2 special category.
             * @enum {string}
             */
            data_class?: "C0" | "C1" | "C2";
            /** Format: date-time */
            observed_at: string;
            /** Format: date-time */
            observed_range_end?: string;
            /** Format: date-time */
            observed_range_start?: string;
            /** @enum {string} */
            provenance_class: "tenant_supplied" | "self_attested" | "analyst_asserted";
            /** @description Registered purpose id (rule I13). */
            purpose: string;
            /**
             * @description Extension: which way the testimony points. When absent it is derived from summary (adverse words such as chargeback, fraud, stolen, scam, impersonation, in en, de, es, fr, pt, not negated, weaken; anything else is neutral).
             * @enum {string}
             */
            stance?: "supports" | "weakens" | "neutral";
            subject: components["schemas"]["Subject"];
            summary: string;
        };
        /** @description A recorded observation, outcome or analyst assertion, as evidence about the resolved entity. */
        ObservationOut: {
            /** @description Set for outcomes. */
            assessment_id: string | null;
            case_id: string | null;
            /**
             * @description Handling the fact requires: C0 open, C1 personal, C2 special category.
             * @enum {string}
             */
            data_class: "C0" | "C1" | "C2";
            /** @description Entity the subject resolved to (for an outcome, its assessment's entity); null when there was none. */
            entity_id: string | null;
            /** @enum {string} */
            kind: "observation" | "outcome" | "assertion";
            /** Format: uuid */
            observation_id: string;
            /** Format: date-time */
            observed_at: string;
            provenance_class: string;
            /** Format: date-time */
            recorded_at: string;
        };
        /** @description What happened after a decision the tenant took on an assessment; feeds calibration (rule A01). */
        OutcomeIn: {
            assessment_id: string;
            /** @description Tenant's own id of the decision taken. */
            decision_ref: string;
            detail?: string;
            /** @enum {string} */
            kind: "repaid" | "defaulted" | "reversed" | "settled" | "confirmed" | "exposed" | "closed_finding" | "other";
            /** Format: date-time */
            observed_at: string;
        };
        /** @description All given conditions must hold for the rule to match (an empty condition always matches). Width is high - low. */
        PolicyCondition: {
            amount_gte?: number;
            amount_lte?: number;
            high_gte?: number;
            high_lte?: number;
            intents?: string[];
            low_gte?: number;
            low_lte?: number;
            preliminary?: boolean;
            purposes?: string[];
            score_gte?: number;
            score_lte?: number;
            stake_kinds?: ("payment" | "credit" | "account" | "listing" | "hire" | "belief" | "other")[];
            width_gte?: number;
            width_lte?: number;
        };
        /** @description A new policy version. Publishing changes labels and never scores. */
        PolicyIn: {
            /** @description Intents inquiries may use (rule I14). */
            allowed_intents: string[];
            /**
             * @description Extension (issue 16): origins (`https://app.example.com`) of the tenant's web apps whose pages may call with its keys (rule O01); none by default.
             * @default []
             */
            allowed_origins?: string[];
            /** @description Purposes inquiries may declare (rule I13). */
            allowed_purposes: string[];
            /**
             * @description Extension (issues 14 and 47): the tenant's default country (ISO 3166-1 alpha-2), where a phone number written without a country code is read when the subject claims no country: in the tenant's material, and in an inquiry's presentations when the claimed country is absent or the number is valid only here (it is not a claim: nothing is said to agree or differ with it). Null reads such a number only in the claimed country; with none, the phone checks answer that a country is needed, not that the number is invalid.
             * @default null
             */
            default_region?: string | null;
            /**
             * @description The most a report may be rendered with; asks above it are clamped.
             * @enum {string}
             */
            render_ceiling: "none" | "template" | "model";
            rules: components["schemas"]["PolicyRule"][];
            /**
             * @description Extension (issue 18): when true, the key that signs a case off cannot be the one that opened it or made its latest change (rule C04).
             * @default false
             */
            separate_sign_off?: boolean;
            /** @description Whether findings appear in inquiry responses (the key also needs the findings scope). */
            show_findings: boolean;
        };
        /** @description A published policy version. */
        PolicyOut: {
            /** @description Intents inquiries may use (rule I14). */
            allowed_intents: string[];
            /**
             * @description Extension (issue 16): origins (`https://app.example.com`) of the tenant's web apps whose pages may call with its keys (rule O01); none by default.
             * @default []
             */
            allowed_origins?: string[];
            /** @description Purposes inquiries may declare (rule I13). */
            allowed_purposes: string[];
            /** Format: date-time */
            created_at: string;
            current: boolean;
            /**
             * @description Extension (issues 14 and 47): the tenant's default country (ISO 3166-1 alpha-2), where a phone number written without a country code is read when the subject claims no country: in the tenant's material, and in an inquiry's presentations when the claimed country is absent or the number is valid only here (it is not a claim: nothing is said to agree or differ with it). Null reads such a number only in the claimed country; with none, the phone checks answer that a country is needed, not that the number is invalid.
             * @default null
             */
            default_region?: string | null;
            policy_version: number;
            /**
             * @description The most a report may be rendered with; asks above it are clamped.
             * @enum {string}
             */
            render_ceiling: "none" | "template" | "model";
            rules: components["schemas"]["PolicyRule"][];
            /**
             * @description Extension (issue 18): when true, the key that signs a case off cannot be the one that opened it or made its latest change (rule C04).
             * @default false
             */
            separate_sign_off?: boolean;
            /** @description Whether findings appear in inquiry responses (the key also needs the findings scope). */
            show_findings: boolean;
        };
        /** @description A label rule; rules are tried in order and the first that matches gives the label. */
        PolicyRule: {
            label: string;
            when: components["schemas"]["PolicyCondition"];
        };
        /** @description A value the caller presented, with its registered artifact type (from GET /v1/registry/artifact-types). */
        Presentation: {
            /** @description Registered artifact type id, for example `EMAIL`, `PHONE`. */
            type: string;
            /** @description Presented value; normalised by the service. */
            value: string;
        };
        /** @description RFC 9457 problem details, served as application/problem+json. */
        Problem: {
            /**
             * Format: uuid
             * @description Audit row written for this call; the same value as the X-Service-Audit-Id header.
             */
            audit_id: string;
            /** @description On 409 from POST /v1/cases/{case_id}/expand (rule C03): the case budget, in check-cost units. */
            budget?: {
                limit: number;
                remaining: number;
                spent: number;
            };
            /**
             * @description On 409 from a case operation: the state that refused it.
             * @enum {string}
             */
            case_state?: "open" | "in_review" | "signed_off" | "closed";
            detail: string;
            /** @description Per-item reasons, when there are several. */
            errors?: components["schemas"]["ValidationIssue"][];
            /** @description On 409 from an expansion (rule C03): what the hop would have cost. */
            estimated_cost?: number;
            /**
             * @description On 409 from a bundle download: the export is not ready.
             * @enum {string}
             */
            export_status?: "queued" | "building" | "ready" | "failed";
            /** @description On 409 from a case operation: whether the case is on legal hold. */
            legal_hold?: boolean;
            /** @description On 413: the largest request body accepted, in bytes. */
            max_bytes?: number;
            /** @description On 409 from an expansion (rule C03): the hop's own cap, when it was the one exceeded. */
            max_cost?: number;
            /**
             * @description On 403: the scope the key lacks.
             * @enum {string}
             */
            missing_scope?: "inquiries" | "findings" | "observations" | "outcomes" | "material" | "cases" | "monitors" | "sessions" | "entities" | "registry" | "admin";
            /** @description On 429 and 503: the Retry-After header, in seconds. */
            retry_after?: number;
            /** @description Rule id, when a rule refused the call. */
            rule?: string;
            status: number;
            title: string;
            /** @description URI identifying the problem type, `urn:tas:problem:<code>`. */
            type: string;
        };
        /** @description One registered id the tenant may use. */
        RegistryEntryOut: {
            description: string;
            id: string;
            /** @description Artifact types only: how presented values are normalised, for example `e164`. */
            normaliser?: string;
        };
        /** @description Findings written up; `rendered_by` states which renderer ran (a tenant may be clamped to `template`). */
        Report: {
            assessment_id: string;
            /** Format: date-time */
            generated_at: string;
            inquiry_id: string;
            lang?: string;
            /** @description Set when a model wrote it; null for a template. */
            prompt_version?: string | null;
            /** @enum {string} */
            rendered_by: "template" | "model";
            sections: components["schemas"]["ReportSection"][];
            share: components["schemas"]["ShareCardOut"];
        };
        /** @description One section of a written report, with the findings it rests on. */
        ReportSection: {
            body: string;
            finding_ids: string[];
            /** @description Stable section key, for example `summary`, `evidence`, `gaps`. */
            key: string;
            title: string;
        };
        /** @description A close accepted; the retention mode is applied as the session drains. */
        SessionCloseOut: {
            reason: string;
            /** Format: uuid */
            session_id: string;
            /** @enum {string} */
            state: "open" | "closing" | "closed";
        };
        /** @description Opens a live intake session. */
        SessionOpen: {
            /**
             * Format: uuid
             * @description Open-ended intake into a case.
             */
            case_id?: string;
            /** @description Required before audio or video frames (rule D36). */
            consent_ref?: string;
            /** @default 300 */
            idle_timeout_seconds?: number;
            /** @description Registered intent id (rule I14). */
            intent: string;
            /** @description Registered purpose id (rule I13). */
            purpose: string;
            /**
             * @description `transient`: raw content is processed and never stored (rule D35).
             * @default standard
             * @enum {string}
             */
            retention_mode?: "standard" | "transient";
            stake: components["schemas"]["Stake"];
            /** @description Known subject, even only a claim; frames may add presentations. */
            subject?: components["schemas"]["SessionSubject"];
        };
        /** @description An opened session. The token is single-use and shown once; present it when connecting to ws_url. */
        SessionOut: {
            /**
             * Format: date-time
             * @description The token must be used before this moment.
             */
            expires_at: string;
            /**
             * @description `transient`: raw content is processed and never stored (rule D35).
             * @enum {string}
             */
            retention_mode: "standard" | "transient";
            /** Format: uuid */
            session_id: string;
            /** @enum {string} */
            state: "open" | "closing" | "closed";
            token: string;
            ws_url: string;
        };
        /** @description Who a live intake is about, as far as known when it opens: presentations, an entity, a claim, or only some of them; frames add the rest. */
        SessionSubject: {
            claim?: components["schemas"]["Claim"];
            /** @description A subject resolved before. */
            entity_id?: string;
            presentations?: components["schemas"]["Presentation"][];
        };
        /** @description A short card of the result that can be shown to a person: no findings, no values. */
        ShareCardOut: {
            /** Format: date-time */
            as_of: string;
            body: string;
            headline: string;
            high: number;
            label: components["schemas"]["Label"] | null;
            low: number;
            score: number;
        };
        /** @description What the truster stands to lose; it fixes how narrow the interval must be and how much evidence is worth gathering. */
        Stake: {
            amount?: number;
            /** @description ISO 4217 code, upper case. */
            currency?: string;
            /** @description Milliseconds the caller can wait for a first answer (default 3000). */
            deadline_ms?: number;
            /** @enum {string} */
            kind: "payment" | "credit" | "account" | "listing" | "hire" | "belief" | "other";
            /** @description Whether the truster can undo the act afterwards. */
            reversible?: boolean;
        };
        /** @description A one-time ticket for one event stream. Open `events_url` (it carries `?ticket=`) before `expires_at`; the ticket is good for one opening only, and a reconnect needs a new one. */
        StreamTicketOut: {
            /** @description The stream, with the ticket in its query. */
            events_url: string;
            /**
             * Format: date-time
             * @description The ticket must be used before this moment.
             */
            expires_at: string;
            /** @description Single-use, short-lived; shown once and never stored in the clear. */
            ticket: string;
        };
        /** @description Who or what the question is about: presented values, an entity resolved before, or both (rule I18). */
        Subject: {
            claim?: components["schemas"]["Claim"];
            /** @description A subject resolved before. */
            entity_id?: string;
            presentations?: components["schemas"]["Presentation"][];
        };
        /** @description Where to PUT the declared bytes; the upload must match the declared hash and size. */
        UploadTarget: {
            /** Format: date-time */
            expires_at: string;
            headers: {
                [key: string]: string;
            };
            /** @constant */
            method: "PUT";
            url: string;
        };
        /** @description One reason a request was refused: where (`loc`), why (`msg`) and a stable code or rule id (`type`). */
        ValidationIssue: {
            /** @description Path to the offending input, for example `["body", "stake", "kind"]`. */
            loc: (string | number)[];
            msg: string;
            /** @description Extension (issue 51): on an I13 or I14 refusal of a registered purpose or intent that the tenant's current policy leaves out, that policy's version and the values it allows. */
            policy?: {
                allowed: string[];
                policy_version: number;
            };
            /** @description A rule id (`I13`, ...) or a validation code (`extra_forbidden`, `missing`, ...). */
            type: string;
        };
        /** @description One delivery attempt of one event to a webhook: never the payload, never the receiver's answer body. */
        WebhookDeliveryOut: {
            attempt: number;
            /** Format: date-time */
            attempted_at: string;
            /** @description Our own neutral words (`timeout`, `http 503`). */
            error: string | null;
            /** Format: uuid */
            event_id: string;
            event_type: string;
            http_status: number | null;
            /** @description From the start of the attempt to the answer, refusal or timeout; null on attempts logged before it was measured. */
            latency_ms: number | null;
            /** @description The `webhook-id` header: the same on every retry of one delivery. */
            message_id: string;
            next_attempt_at: string | null;
            /** @enum {string} */
            status: "succeeded" | "failed" | "retrying" | "gave_up" | "disabled";
        };
        /** @description Registers a webhook endpoint. Deliveries are signed per Standard Webhooks. */
        WebhookIn: {
            description?: string;
            event_types: ("MonitorTriggered" | "AssessmentRevised" | "InquiryConcluded" | "CaseChanged")[];
            /**
             * Format: uri
             * @description HTTPS target; private and loopback addresses are refused outside test mode.
             */
            url: string;
        };
        /** @description A registered webhook. `secret` (the signing key, `whsec_...`) is present only in the answer that registered it. */
        WebhookOut: {
            /** Format: date-time */
            created_at: string;
            description: string | null;
            event_types: ("MonitorTriggered" | "AssessmentRevised" | "InquiryConcluded" | "CaseChanged")[];
            secret?: string;
            url: string;
            /** Format: uuid */
            webhook_id: string;
        };
        /** @description Changes a webhook: its target (checked again by rule W01), its event types, its description, or whether it is enabled. Only the fields given change. */
        WebhookPatch: {
            description?: string | null;
            /** @description False pauses deliveries; true resumes them, also after the service disabled the endpoint (a 410 from the receiver). */
            enabled?: boolean;
            event_types?: ("MonitorTriggered" | "AssessmentRevised" | "InquiryConcluded" | "CaseChanged")[];
            /**
             * Format: uri
             * @description HTTPS target; private and loopback addresses are refused outside test mode.
             */
            url?: string;
        };
        /** @description A message queued to be delivered again, with the same `webhook-id`, so a receiver that already has it can tell. */
        WebhookRedeliveryOut: {
            /** Format: uuid */
            event_id: string;
            event_type: string;
            message_id: string;
            /** Format: date-time */
            queued_at: string;
        };
        /** @description Rotates the signing secret. Until `grace_seconds` have passed, deliveries are signed under both the new and the old secret (Standard Webhooks). */
        WebhookSecretRotate: {
            /**
             * @description How long the old secret still signs; 0 ends it at once. At most 7 days.
             * @default 86400
             */
            grace_seconds?: number;
        };
        /** @description A registered webhook as listed: never its secret. */
        WebhookSummary: {
            /** Format: date-time */
            created_at: string;
            description: string | null;
            disabled_reason: string | null;
            /** @description False once the service disabled it (for example its target stopped passing rule W01). */
            enabled: boolean;
            event_types: ("MonitorTriggered" | "AssessmentRevised" | "InquiryConcluded" | "CaseChanged")[];
            url: string;
            /** Format: uuid */
            webhook_id: string;
        };
    };
    responses: {
        /** @description Conflict: The resource is not in a state that allows this (for example export before sign-off). */
        Conflict: {
            headers: {
                "X-Service-Audit-Id": components["headers"]["AuditId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "urn:tas:problem:conflict",
                 *       "title": "Conflict",
                 *       "status": 409,
                 *       "detail": "The resource is not in a state that allows this (for example export before sign-off).",
                 *       "audit_id": "0193a5b0-7c1e-7d2a-9b3c-4d5e6f708192"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Bad Gateway: The engine could not complete; retry once. `audit_id` names the attempt. */
        EngineFailed: {
            headers: {
                "X-Service-Audit-Id": components["headers"]["AuditId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "urn:tas:problem:engine-failed",
                 *       "title": "Bad Gateway",
                 *       "status": 502,
                 *       "detail": "The engine could not complete; retry once. `audit_id` names the attempt.",
                 *       "audit_id": "0193a5b0-7c1e-7d2a-9b3c-4d5e6f708192"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Forbidden: A valid key without the scope (`missing_scope`), or a tenant the operation is not for. */
        Forbidden: {
            headers: {
                "X-Service-Audit-Id": components["headers"]["AuditId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "urn:tas:problem:forbidden",
                 *       "title": "Forbidden",
                 *       "status": 403,
                 *       "detail": "A valid key without the scope (`missing_scope`), or a tenant the operation is not for.",
                 *       "audit_id": "0193a5b0-7c1e-7d2a-9b3c-4d5e6f708192",
                 *       "missing_scope": "admin"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Gone: An event cursor older than the retained stream: replay is impossible, not silently gapped. */
        Gone: {
            headers: {
                "X-Service-Audit-Id": components["headers"]["AuditId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "urn:tas:problem:gone",
                 *       "title": "Gone",
                 *       "status": 410,
                 *       "detail": "An event cursor older than the retained stream: replay is impossible, not silently gapped.",
                 *       "audit_id": "0193a5b0-7c1e-7d2a-9b3c-4d5e6f708192"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Not Found: Unknown id; an id of another tenant or mode is answered identically. */
        NotFound: {
            headers: {
                "X-Service-Audit-Id": components["headers"]["AuditId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "urn:tas:problem:not-found",
                 *       "title": "Not Found",
                 *       "status": 404,
                 *       "detail": "Unknown id; an id of another tenant or mode is answered identically.",
                 *       "audit_id": "0193a5b0-7c1e-7d2a-9b3c-4d5e6f708192"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Payload Too Large: The request body exceeds the limit. */
        PayloadTooLarge: {
            headers: {
                "X-Service-Audit-Id": components["headers"]["AuditId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "urn:tas:problem:payload-too-large",
                 *       "title": "Payload Too Large",
                 *       "status": 413,
                 *       "detail": "The request body exceeds the limit.",
                 *       "audit_id": "0193a5b0-7c1e-7d2a-9b3c-4d5e6f708192"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Too Many Requests: Over the rate limit of the key; wait `Retry-After` seconds. */
        RateLimited: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                "X-Service-Audit-Id": components["headers"]["AuditId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "urn:tas:problem:rate-limited",
                 *       "title": "Too Many Requests",
                 *       "status": 429,
                 *       "detail": "Over the rate limit of the key; wait `Retry-After` seconds.",
                 *       "audit_id": "0193a5b0-7c1e-7d2a-9b3c-4d5e6f708192"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Unauthorized: No key, or a malformed, unknown, expired or revoked key. */
        Unauthorized: {
            headers: {
                "X-Service-Audit-Id": components["headers"]["AuditId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "urn:tas:problem:unauthorized",
                 *       "title": "Unauthorized",
                 *       "status": 401,
                 *       "detail": "No key, or a malformed, unknown, expired or revoked key.",
                 *       "audit_id": "0193a5b0-7c1e-7d2a-9b3c-4d5e6f708192"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Service Unavailable: The node is draining or starting; retry after `Retry-After`. */
        Unavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                "X-Service-Audit-Id": components["headers"]["AuditId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "urn:tas:problem:unavailable",
                 *       "title": "Service Unavailable",
                 *       "status": 503,
                 *       "detail": "The node is draining or starting; retry after `Retry-After`.",
                 *       "audit_id": "0193a5b0-7c1e-7d2a-9b3c-4d5e6f708192"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Unsupported Media Type: A body that is not `application/json`. */
        UnsupportedMediaType: {
            headers: {
                "X-Service-Audit-Id": components["headers"]["AuditId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "urn:tas:problem:unsupported-media-type",
                 *       "title": "Unsupported Media Type",
                 *       "status": 415,
                 *       "detail": "A body that is not `application/json`.",
                 *       "audit_id": "0193a5b0-7c1e-7d2a-9b3c-4d5e6f708192"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Refused: a field is missing, malformed or unknown (`extra_forbidden`), or a rule refused the call (`type` is the rule id). Do not retry unchanged. */
        ValidationError: {
            headers: {
                "X-Service-Audit-Id": components["headers"]["AuditId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": [
                 *         {
                 *           "loc": [
                 *             "body",
                 *             "purpose"
                 *           ],
                 *           "msg": "Field required",
                 *           "type": "missing"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["HTTPValidationError"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Id of the one audit row this call wrote, refused or not (also `audit_id` in problem bodies). */
        AuditId: string;
        /** @description Seconds to wait before retrying. */
        RetryAfter: number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getExportKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The JWKS. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "keys": [
                     *         {
                     *           "kty": "OKP",
                     *           "crv": "Ed25519",
                     *           "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
                     *           "kid": "tas-export-2026-11",
                     *           "use": "sig",
                     *           "alg": "EdDSA"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ExportKeySet"];
                };
            };
            503: components["responses"]["Unavailable"];
        };
    };
    getDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HTML page rendering /openapi.json. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            503: components["responses"]["Unavailable"];
        };
    };
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Free-form health report; nothing about any tenant. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Healthz"];
                };
            };
            503: components["responses"]["Unavailable"];
        };
    };
    getOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            503: components["responses"]["Unavailable"];
        };
    };
    listAudit: {
        parameters: {
            query?: {
                /** @description Continue after this audit_id. */
                after?: string;
                /** @description Only calls made with this key. */
                key_id?: string;
                limit?: number;
                /** @description Only calls of this operationId (e.g. createInquiry). */
                operation?: string;
                /** @description Only calls at or after this time. */
                since?: string;
                /** @description Only calls answered with this HTTP status. */
                status?: number;
                /** @description Only calls before this time. */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Audit entries. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "audit_id": "018f3a7c-8c9d-7e0f-9a1b-2c3d4e5f6a7b",
                     *         "occurred_at": "2026-11-20T09:30:00Z",
                     *         "principal": "key:checkout-backend",
                     *         "action": "createInquiry",
                     *         "target_kind": "inquiry",
                     *         "target_id": "018f3a71-0b2c-7e44-9a13-2c4d6e8f0a15",
                     *         "status": 200,
                     *         "rule": null,
                     *         "purpose": "fraud_prevention",
                     *         "key_id": "018f3a77-3d4e-7f5a-8b6c-7d8e9f0a1b2c",
                     *         "cost_amount": 0,
                     *         "cost_currency": "check-units"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["AuditEntryOut"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    exportAudit: {
        parameters: {
            query: {
                /** @description The first UTC day of the period (YYYY-MM-DD). */
                from: string;
                /** @description The last UTC day of the period (YYYY-MM-DD), at most 365 days after `from`. */
                to: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The trail, as NDJSON. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    listKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "key_id": "018f3a77-3d4e-7f5a-8b6c-7d8e9f0a1b2c",
                     *         "name": "checkout-backend",
                     *         "scopes": [
                     *           "inquiries",
                     *           "outcomes"
                     *         ],
                     *         "mode": "live",
                     *         "prefix": "tas_live_7f3a",
                     *         "created_at": "2026-10-02T08:00:00Z",
                     *         "expires_at": "2027-11-20T00:00:00Z",
                     *         "revoked_at": null,
                     *         "last_used_at": "2026-11-20T09:29:00Z"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["KeySummary"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    createKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "checkout-backend",
                 *       "scopes": [
                 *         "inquiries",
                 *         "outcomes"
                 *       ],
                 *       "mode": "live",
                 *       "expires_at": "2027-11-20T00:00:00Z"
                 *     }
                 */
                "application/json": components["schemas"]["KeyCreate"];
            };
        };
        responses: {
            /** @description The key, with its secret this once. */
            201: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "key_id": "018f3a77-3d4e-7f5a-8b6c-7d8e9f0a1b2c",
                     *       "name": "checkout-backend",
                     *       "scopes": [
                     *         "inquiries",
                     *         "outcomes"
                     *       ],
                     *       "mode": "live",
                     *       "prefix": "tas_live_7f3a",
                     *       "created_at": "2026-10-02T08:00:00Z",
                     *       "expires_at": "2027-11-20T00:00:00Z",
                     *       "secret": "tas_live_7f3a…shown once…"
                     *     }
                     */
                    "application/json": components["schemas"]["KeyOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    revokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the key (uuid). */
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key is revoked; it now yields 401. */
            204: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    rotateKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the key (uuid). */
                key_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "grace_seconds": 3600
                 *     }
                 */
                "application/json": components["schemas"]["KeyRotate"];
            };
        };
        responses: {
            /** @description The new key, with its secret this once. */
            201: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "key_id": "018f3a7a-6a7b-7c8d-9e0f-1a2b3c4d5e6f",
                     *       "name": "checkout-backend",
                     *       "scopes": [
                     *         "inquiries",
                     *         "outcomes"
                     *       ],
                     *       "mode": "live",
                     *       "prefix": "tas_live_c21d",
                     *       "created_at": "2026-11-20T09:30:00Z",
                     *       "expires_at": "2027-11-20T00:00:00Z",
                     *       "secret": "tas_live_c21d…shown once…"
                     *     }
                     */
                    "application/json": components["schemas"]["KeyOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    listPolicies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Policy versions. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "allowed_purposes": [
                     *           "fraud_prevention"
                     *         ],
                     *         "allowed_intents": [
                     *           "pre_transaction",
                     *           "onboarding"
                     *         ],
                     *         "render_ceiling": "template",
                     *         "show_findings": true,
                     *         "separate_sign_off": true,
                     *         "default_region": "GB",
                     *         "allowed_origins": [
                     *           "https://app.example.com"
                     *         ],
                     *         "rules": [
                     *           {
                     *             "label": "review",
                     *             "when": {
                     *               "score_lte": 40
                     *             }
                     *           },
                     *           {
                     *             "label": "proceed",
                     *             "when": {}
                     *           }
                     *         ],
                     *         "policy_version": 3,
                     *         "created_at": "2026-11-20T09:30:00Z",
                     *         "current": true
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["PolicyOut"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    publishPolicy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request gets the first answer again (with `Idempotent-Replayed: true`); with another request it is refused (rule I17); while the first is still running, 409 with Retry-After. 1-128 visible ASCII characters, per tenant, mode and operation. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "allowed_purposes": [
                 *         "fraud_prevention"
                 *       ],
                 *       "allowed_intents": [
                 *         "pre_transaction",
                 *         "onboarding"
                 *       ],
                 *       "render_ceiling": "template",
                 *       "show_findings": true,
                 *       "separate_sign_off": true,
                 *       "default_region": "GB",
                 *       "allowed_origins": [
                 *         "https://app.example.com"
                 *       ],
                 *       "rules": [
                 *         {
                 *           "label": "review",
                 *           "when": {
                 *             "score_lte": 40
                 *           }
                 *         },
                 *         {
                 *           "label": "step_up",
                 *           "when": {
                 *             "width_gte": 50,
                 *             "stake_kinds": [
                 *               "payment"
                 *             ],
                 *             "amount_gte": 1000
                 *           }
                 *         },
                 *         {
                 *           "label": "proceed",
                 *           "when": {}
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["PolicyIn"];
            };
        };
        responses: {
            /** @description The published version, now current. */
            201: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "allowed_purposes": [
                     *         "fraud_prevention"
                     *       ],
                     *       "allowed_intents": [
                     *         "pre_transaction",
                     *         "onboarding"
                     *       ],
                     *       "render_ceiling": "template",
                     *       "show_findings": true,
                     *       "separate_sign_off": true,
                     *       "default_region": "GB",
                     *       "allowed_origins": [
                     *         "https://app.example.com"
                     *       ],
                     *       "rules": [
                     *         {
                     *           "label": "review",
                     *           "when": {
                     *             "score_lte": 40
                     *           }
                     *         },
                     *         {
                     *           "label": "proceed",
                     *           "when": {}
                     *         }
                     *       ],
                     *       "policy_version": 3,
                     *       "created_at": "2026-11-20T09:30:00Z",
                     *       "current": true
                     *     }
                     */
                    "application/json": components["schemas"]["PolicyOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhooks. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "webhook_id": "018f3a76-2c3d-7e4f-9a5b-6c7d8e9f0a1b",
                     *         "url": "https://hooks.example.com/tas",
                     *         "event_types": [
                     *           "InquiryConcluded",
                     *           "MonitorTriggered"
                     *         ],
                     *         "description": "Risk team",
                     *         "created_at": "2026-11-20T09:30:00Z",
                     *         "enabled": true,
                     *         "disabled_reason": null
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["WebhookSummary"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://hooks.example.com/tas",
                 *       "event_types": [
                 *         "InquiryConcluded",
                 *         "MonitorTriggered"
                 *       ],
                 *       "description": "Risk team"
                 *     }
                 */
                "application/json": components["schemas"]["WebhookIn"];
            };
        };
        responses: {
            /** @description The webhook, with its signing secret this once. */
            201: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "webhook_id": "018f3a76-2c3d-7e4f-9a5b-6c7d8e9f0a1b",
                     *       "url": "https://hooks.example.com/tas",
                     *       "event_types": [
                     *         "InquiryConcluded",
                     *         "MonitorTriggered"
                     *       ],
                     *       "description": "Risk team",
                     *       "created_at": "2026-11-20T09:30:00Z",
                     *       "secret": "whsec_…shown once…"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the webhook (uuid). */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "webhook_id": "018f3a76-2c3d-7e4f-9a5b-6c7d8e9f0a1b",
                     *       "url": "https://hooks.example.com/tas",
                     *       "event_types": [
                     *         "InquiryConcluded",
                     *         "MonitorTriggered"
                     *       ],
                     *       "description": "Risk team",
                     *       "created_at": "2026-11-20T09:30:00Z",
                     *       "enabled": true,
                     *       "disabled_reason": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookSummary"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the webhook (uuid). */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the webhook (uuid). */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event_types": [
                 *         "InquiryConcluded"
                 *       ],
                 *       "enabled": false
                 *     }
                 */
                "application/json": components["schemas"]["WebhookPatch"];
            };
        };
        responses: {
            /** @description The webhook as it now is. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "webhook_id": "018f3a76-2c3d-7e4f-9a5b-6c7d8e9f0a1b",
                     *       "url": "https://hooks.example.com/tas",
                     *       "event_types": [
                     *         "InquiryConcluded"
                     *       ],
                     *       "description": "Risk team",
                     *       "created_at": "2026-11-20T09:30:00Z",
                     *       "enabled": false,
                     *       "disabled_reason": "paused by the tenant"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookSummary"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the webhook (uuid). */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attempts. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "message_id": "msg_018f3a7b7b8c",
                     *         "event_id": "018f3a7b-7b8c-7d9e-8f0a-1b2c3d4e5f6a",
                     *         "event_type": "InquiryConcluded",
                     *         "attempt": 1,
                     *         "status": "retrying",
                     *         "http_status": 503,
                     *         "error": "http 503",
                     *         "next_attempt_at": "2026-11-20T09:30:35Z",
                     *         "attempted_at": "2026-11-20T09:30:00Z",
                     *         "latency_ms": 212
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["WebhookDeliveryOut"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    redeliverWebhookMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the message. */
                message_id: string;
                /** @description Id of the webhook (uuid). */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued. */
            202: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message_id": "msg_018f3a7b7b8c",
                     *       "event_id": "018f3a7b-7b8c-7d9e-8f0a-1b2c3d4e5f6a",
                     *       "event_type": "InquiryConcluded",
                     *       "queued_at": "2026-11-20T09:30:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookRedeliveryOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the webhook (uuid). */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "grace_seconds": 86400
                 *     }
                 */
                "application/json": components["schemas"]["WebhookSecretRotate"];
            };
        };
        responses: {
            /** @description The webhook with its new secret, this once. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "webhook_id": "018f3a76-2c3d-7e4f-9a5b-6c7d8e9f0a1b",
                     *       "url": "https://hooks.example.com/tas",
                     *       "event_types": [
                     *         "InquiryConcluded",
                     *         "MonitorTriggered"
                     *       ],
                     *       "description": "Risk team",
                     *       "created_at": "2026-11-20T09:30:00Z",
                     *       "secret": "whsec_…shown once…"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    listCases: {
        parameters: {
            query?: {
                /** @description Continue after this case_id (the last one of the previous page). */
                after?: string;
                limit?: number;
                /** @description Only cases in this state. */
                state?: "open" | "in_review" | "signed_off" | "closed";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cases, newest first. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "case_id": "018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30",
                     *         "state": "open",
                     *         "title": "Mule ring, north region",
                     *         "purpose": "investigation",
                     *         "legal_hold": false,
                     *         "created_at": "2026-11-19T14:00:00Z",
                     *         "updated_at": "2026-11-20T09:30:00Z"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["CaseSummaryList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    createCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request gets the first answer again (with `Idempotent-Replayed: true`); with another request it is refused (rule I17); while the first is still running, 409 with Retry-After. 1-128 visible ASCII characters, per tenant, mode and operation. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "title": "Mule ring, north region",
                 *       "purpose": "investigation",
                 *       "authorization": {
                 *         "kind": "court_order",
                 *         "reference": "CO-2026-21",
                 *         "issued_by": "District Court"
                 *       },
                 *       "budget": 25,
                 *       "subject": {
                 *         "presentations": [
                 *           {
                 *             "type": "EMAIL",
                 *             "value": "jane.doe@example.org"
                 *           },
                 *           {
                 *             "type": "PHONE",
                 *             "value": "+44 20 7946 0321"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CaseCreate"];
            };
        };
        responses: {
            /** @description The opened case. */
            201: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "case_id": "018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30",
                     *       "state": "open",
                     *       "legal_hold": false,
                     *       "title": "Mule ring, north region",
                     *       "purpose": "investigation",
                     *       "authorization": {
                     *         "kind": "court_order",
                     *         "reference": "CO-2026-21",
                     *         "issued_by": "District Court"
                     *       },
                     *       "members": [],
                     *       "budget": {
                     *         "limit": 25,
                     *         "spent": 0,
                     *         "remaining": 25
                     *       },
                     *       "entity_ids": [],
                     *       "finding": null,
                     *       "sequence": 1,
                     *       "events_url": "https://tas.example/v1/cases/018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30/events",
                     *       "created_at": "2026-11-19T14:00:00Z",
                     *       "updated_at": "2026-11-19T14:00:00Z",
                     *       "closed_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["CaseOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    getCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the case (uuid). */
                case_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The case. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "case_id": "018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30",
                     *       "state": "open",
                     *       "legal_hold": false,
                     *       "title": "Mule ring, north region",
                     *       "purpose": "investigation",
                     *       "authorization": {
                     *         "kind": "court_order",
                     *         "reference": "CO-2026-21",
                     *         "issued_by": "District Court"
                     *       },
                     *       "members": [
                     *         {
                     *           "principal": "analyst-7",
                     *           "role": "analyst",
                     *           "added_at": "2026-11-20T09:30:00Z"
                     *         }
                     *       ],
                     *       "budget": {
                     *         "limit": 25,
                     *         "spent": 3,
                     *         "remaining": 22
                     *       },
                     *       "entity_ids": [
                     *         "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12"
                     *       ],
                     *       "finding": null,
                     *       "sequence": 4,
                     *       "events_url": "https://tas.example/v1/cases/018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30/events",
                     *       "created_at": "2026-11-19T14:00:00Z",
                     *       "updated_at": "2026-11-20T09:30:00Z",
                     *       "closed_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["CaseOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    createCaseAssertion: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request gets the first answer again (with `Idempotent-Replayed: true`); with another request it is refused (rule I17); while the first is still running, 409 with Retry-After. 1-128 visible ASCII characters, per tenant, mode and operation. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id of the case (uuid). */
                case_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "subject": {
                 *         "presentations": [
                 *           {
                 *             "type": "EMAIL",
                 *             "value": "ring.one@example.org"
                 *           }
                 *         ]
                 *       },
                 *       "statement": "Opened three accounts with the same device in one evening",
                 *       "disposition": "weakens",
                 *       "observed_at": "2026-11-20T09:30:00Z"
                 *     }
                 */
                "application/json": components["schemas"]["CaseAssertionIn"];
            };
        };
        responses: {
            /** @description The recorded assertion. */
            201: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "observation_id": "018f3a72-5d10-7a2b-8c3d-4e5f6a7b8c9d",
                     *       "kind": "assertion",
                     *       "provenance_class": "analyst_asserted",
                     *       "entity_id": "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12",
                     *       "assessment_id": null,
                     *       "case_id": "018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30",
                     *       "data_class": "C1",
                     *       "observed_at": "2026-11-20T09:30:00Z",
                     *       "recorded_at": "2026-11-20T09:30:02Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ObservationOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    closeCase: {
        parameters: {
            query?: {
                /** @description The finding the case closes with. */
                finding?: string;
            };
            header?: never;
            path: {
                /** @description Id of the case (uuid). */
                case_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The closed case. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "case_id": "018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30",
                     *       "state": "closed",
                     *       "legal_hold": false,
                     *       "title": "Mule ring, north region",
                     *       "purpose": "investigation",
                     *       "authorization": {
                     *         "kind": "court_order",
                     *         "reference": "CO-2026-21",
                     *         "issued_by": "District Court"
                     *       },
                     *       "members": [
                     *         {
                     *           "principal": "analyst-7",
                     *           "role": "analyst",
                     *           "added_at": "2026-11-20T09:30:00Z"
                     *         }
                     *       ],
                     *       "budget": {
                     *         "limit": 25,
                     *         "spent": 3,
                     *         "remaining": 22
                     *       },
                     *       "entity_ids": [
                     *         "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12"
                     *       ],
                     *       "finding": "Referred to the police",
                     *       "sequence": 8,
                     *       "events_url": "https://tas.example/v1/cases/018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30/events",
                     *       "created_at": "2026-11-19T14:00:00Z",
                     *       "updated_at": "2026-11-20T09:30:00Z",
                     *       "closed_at": "2026-11-20T09:30:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["CaseOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    streamCaseEvents: {
        parameters: {
            query?: {
                /** @description Deprecated: an API key in the URL. Refused (401) unless the operator allows it (TAS_STREAM_ACCESS_TOKEN=allow); then answered with a `Deprecation` header. Use `ticket`. */
                access_token?: string;
                /** @description Replay from after this event (its SSE id). `Last-Event-ID`, when sent, wins. */
                after?: string;
                /** @description For a browser EventSource, which cannot send an Authorization header: a one-time stream ticket from `POST .../events/tickets`. */
                ticket?: string;
            };
            header?: {
                /** @description Sent by an SSE client on reconnect; wins over a stale `after`. */
                "Last-Event-ID"?: string;
            };
            path: {
                /** @description Id of the case (uuid). */
                case_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Server-sent events; each `data:` of an event with an `id:` is an EventEnvelope. Two live signals carry no `id:` (never stored, never replayed): `StreamEnding` ({stream_id, reason}) just before the server ends the response (`shutdown`: reconnect with Last-Event-ID; `monitor_deleted`, `key_revoked`, `key_expired`: do not), and on monitor streams `MonitorChecked` ({stream_id, checked_at, unchanged}) after a rescan that changed nothing. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description The stream has ended and the cursor is at its end: stop reconnecting. */
            204: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Gone"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    mintCaseEventsTicket: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the case (uuid). */
                case_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ticket and the stream URL carrying it. */
            201: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ticket": "tst_…shown once…",
                     *       "events_url": "https://tas.example/v1/cases/018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30/events?ticket=tst_…",
                     *       "expires_at": "2026-11-20T09:31:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["StreamTicketOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    expandCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request gets the first answer again (with `Idempotent-Replayed: true`); with another request it is refused (rule I17); while the first is still running, 409 with Retry-After. 1-128 visible ASCII characters, per tenant, mode and operation. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id of the case (uuid). */
                case_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "seed": {
                 *         "presentations": [
                 *           {
                 *             "type": "PHONE",
                 *             "value": "+44 20 7946 0555"
                 *           }
                 *         ]
                 *       },
                 *       "intent": "investigation",
                 *       "human_gate": true,
                 *       "max_cost": 5
                 *     }
                 */
                "application/json": components["schemas"]["CaseExpandIn"];
            };
        };
        responses: {
            /** @description The expansion inquiry; revisions follow on the case stream. */
            202: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "inquiry_id": "018f3a71-0b2c-7e44-9a13-2c4d6e8f0a15",
                     *       "status": "concluded",
                     *       "assessment": {
                     *         "assessment_id": "018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c77",
                     *         "inquiry_id": "018f3a71-0b2c-7e44-9a13-2c4d6e8f0a15",
                     *         "score": 34,
                     *         "low": 3,
                     *         "high": 77,
                     *         "preliminary": false,
                     *         "as_of": "2026-11-20T09:30:00Z",
                     *         "methodology_version": "trust-method/3",
                     *         "label": null,
                     *         "evidence": {
                     *           "signals": 6,
                     *           "failed_signals": 1,
                     *           "contradictions": 1,
                     *           "by_provenance_class": {
                     *             "computed": 5,
                     *             "tenant_supplied": 1
                     *           },
                     *           "by_trust_band": {
                     *             "high": 2,
                     *             "medium": 3,
                     *             "low": 1
                     *           },
                     *           "oldest_observed_at": "2026-11-12T16:05:00Z",
                     *           "newest_observed_at": "2026-11-20T09:30:00Z"
                     *         },
                     *         "entity_id": "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12"
                     *       },
                     *       "findings": {
                     *         "inquiry_id": "018f3a71-0b2c-7e44-9a13-2c4d6e8f0a15",
                     *         "assessment_id": "018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c77",
                     *         "subject": [
                     *           {
                     *             "type": "EMAIL",
                     *             "value": "jane.doe@example.org"
                     *           },
                     *           {
                     *             "type": "PHONE",
                     *             "value": "+44 20 7946 0321"
                     *           }
                     *         ],
                     *         "findings": [
                     *           {
                     *             "finding_id": "f-1",
                     *             "about": "jane.doe@example.org",
                     *             "about_type": "EMAIL",
                     *             "kind": "disposable_email",
                     *             "statement": "The domain example.org is not a throw-away inbox provider.",
                     *             "provenance_class": "computed",
                     *             "trust_band": "high",
                     *             "observed_at": "2026-11-20T09:30:00Z",
                     *             "data_class": "C1",
                     *             "disposition": "neutral"
                     *           },
                     *           {
                     *             "finding_id": "f-2",
                     *             "about": "+44 20 7946 0321",
                     *             "about_type": "PHONE",
                     *             "kind": "graph_shared_value",
                     *             "statement": "The phone number is also carried by 2 other entities of yours, 1 of them with an adverse outcome.",
                     *             "provenance_class": "tenant_supplied",
                     *             "trust_band": "medium",
                     *             "observed_at": "2026-11-20T09:30:00Z",
                     *             "data_class": "C1",
                     *             "disposition": "weakens",
                     *             "strength": "strong"
                     *           }
                     *         ],
                     *         "absences": [
                     *           {
                     *             "about": "example.org",
                     *             "about_type": "DOMAIN",
                     *             "kind": "timeout",
                     *             "reason": "The domain registration look-up did not answer within its time."
                     *           }
                     *         ],
                     *         "coverage": {
                     *           "tier_ceiling": "t1",
                     *           "checks_run": 9,
                     *           "checks_answered": 8,
                     *           "checks_unanswered": 1
                     *         },
                     *         "generated_at": "2026-11-20T09:30:00Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["InquiryResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    exportCase: {
        parameters: {
            query?: {
                /** @description Evidentiary bundle: manifest of hashes, timeline, graph, assessments, audit excerpt, signature. `bundle_with_bytes` also carries, as `material/<sha256>`, the bytes of the case's material that retention kept (standard retention, not C2), up to 256 MiB. */
                format?: "bundle" | "bundle_with_bytes";
            };
            header?: never;
            path: {
                /** @description Id of the case (uuid). */
                case_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export, being built. */
            202: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "export_id": "018f3a74-0a1b-7c2d-8e3f-4a5b6c7d8e9f",
                     *       "case_id": "018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30",
                     *       "format": "bundle",
                     *       "status": "queued",
                     *       "manifest_sha256": null,
                     *       "download_url": null,
                     *       "expires_at": null,
                     *       "requested_at": "2026-11-20T09:30:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["CaseExportOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    getCaseExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the case (uuid). */
                case_id: string;
                /** @description Id of the export (uuid). */
                export_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "export_id": "018f3a74-0a1b-7c2d-8e3f-4a5b6c7d8e9f",
                     *       "case_id": "018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30",
                     *       "format": "bundle",
                     *       "status": "ready",
                     *       "manifest_sha256": "c4e1a9f07b3d25e6081f4a9c3e7b5d2f1a0c8e6b4d2f0a9e7c5b3d1f9e8a7c6b",
                     *       "download_url": "https://tas.example/v1/cases/018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30/exports/018f3a74-0a1b-7c2d-8e3f-4a5b6c7d8e9f/bundle",
                     *       "expires_at": "2026-11-27T09:30:00Z",
                     *       "requested_at": "2026-11-20T09:30:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["CaseExportOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    downloadCaseExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the case (uuid). */
                case_id: string;
                /** @description Id of the export (uuid). */
                export_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bundle: manifest.json, manifest.sig and the case files. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/gzip": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    getCaseGraph: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the case (uuid). */
                case_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Nodes and edges. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "case_id": "018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30",
                     *       "nodes": [
                     *         {
                     *           "node_id": "entity:018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12",
                     *           "type": "entity",
                     *           "label": "entity",
                     *           "provenance_class": "computed",
                     *           "entity_id": "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12"
                     *         },
                     *         {
                     *           "node_id": "EMAIL:ring.one@example.org",
                     *           "type": "EMAIL",
                     *           "label": "ring.one@example.org",
                     *           "provenance_class": "tenant_supplied",
                     *           "entity_id": "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12"
                     *         }
                     *       ],
                     *       "edges": [
                     *         {
                     *           "edge_id": "identifies:1",
                     *           "from": "EMAIL:ring.one@example.org",
                     *           "to": "entity:018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12",
                     *           "relation": "identifies",
                     *           "weight": 1,
                     *           "provenance_class": "tenant_supplied"
                     *         }
                     *       ],
                     *       "generated_at": "2026-11-20T09:30:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["CaseGraphOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    holdCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the case (uuid). */
                case_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "reason": "Preservation order received",
                 *       "reference": "PO-2026-118"
                 *     }
                 */
                "application/json": components["schemas"]["CaseHoldIn"];
            };
        };
        responses: {
            /** @description The case after the command. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "case_id": "018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30",
                     *       "state": "open",
                     *       "legal_hold": true,
                     *       "title": "Mule ring, north region",
                     *       "purpose": "investigation",
                     *       "authorization": {
                     *         "kind": "court_order",
                     *         "reference": "CO-2026-21",
                     *         "issued_by": "District Court"
                     *       },
                     *       "members": [
                     *         {
                     *           "principal": "analyst-7",
                     *           "role": "analyst",
                     *           "added_at": "2026-11-20T09:30:00Z"
                     *         }
                     *       ],
                     *       "budget": {
                     *         "limit": 25,
                     *         "spent": 3,
                     *         "remaining": 22
                     *       },
                     *       "entity_ids": [
                     *         "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12"
                     *       ],
                     *       "finding": null,
                     *       "sequence": 5,
                     *       "events_url": "https://tas.example/v1/cases/018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30/events",
                     *       "created_at": "2026-11-19T14:00:00Z",
                     *       "updated_at": "2026-11-20T09:30:00Z",
                     *       "closed_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["CaseOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    intakeCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request gets the first answer again (with `Idempotent-Replayed: true`); with another request it is refused (rule I17); while the first is still running, 409 with Retry-After. 1-128 visible ASCII characters, per tenant, mode and operation. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id of the case (uuid). */
                case_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "items": [
                 *         {
                 *           "kind": "presentation",
                 *           "ref": "row-1",
                 *           "presentation": {
                 *             "type": "EMAIL",
                 *             "value": "ring.one@example.org"
                 *           }
                 *         },
                 *         {
                 *           "kind": "material",
                 *           "ref": "scan-1",
                 *           "material_kind": "image",
                 *           "media_type": "image/png",
                 *           "sha256": "9f2a4c1e0b7d3f5a8c6e1d2b4a7f9c0e3d5b8a1c4e7f0a2b5d8c1e4f7a0b3c6d",
                 *           "size_bytes": 48213
                 *         }
                 *       ],
                 *       "note": "Seized phone, export of contacts"
                 *     }
                 */
                "application/json": components["schemas"]["IntakeManifest"];
            };
        };
        responses: {
            /** @description How each item was taken. */
            201: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "intake_id": "018f3a78-4e5f-7a6b-9c7d-8e9f0a1b2c3d",
                     *       "case_id": "018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30",
                     *       "sequence": 5,
                     *       "accepted": 2,
                     *       "duplicate": 0,
                     *       "rejected": 0,
                     *       "items": [
                     *         {
                     *           "ref": "row-1",
                     *           "status": "accepted",
                     *           "rule": null,
                     *           "reason": null,
                     *           "target_id": "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12",
                     *           "upload": null
                     *         },
                     *         {
                     *           "ref": "scan-1",
                     *           "status": "accepted",
                     *           "rule": null,
                     *           "reason": null,
                     *           "target_id": "mat_018f3a78-4e60-7b7c-8d9e-0f1a2b3c4d5e",
                     *           "upload": {
                     *             "url": "https://tas.example/v1/material/mat_018f3a78-4e60-7b7c-8d9e-0f1a2b3c4d5e/content?token=…",
                     *             "method": "PUT",
                     *             "headers": {
                     *               "Content-Type": "image/png"
                     *             },
                     *             "expires_at": "2026-11-20T10:30:00Z"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["IntakeOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    changeCaseMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the case (uuid). */
                case_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "principal": "analyst-7",
                 *       "role": "analyst",
                 *       "action": "add"
                 *     }
                 */
                "application/json": components["schemas"]["CaseMemberIn"];
            };
        };
        responses: {
            /** @description The case after the command. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "case_id": "018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30",
                     *       "state": "open",
                     *       "legal_hold": false,
                     *       "title": "Mule ring, north region",
                     *       "purpose": "investigation",
                     *       "authorization": {
                     *         "kind": "court_order",
                     *         "reference": "CO-2026-21",
                     *         "issued_by": "District Court"
                     *       },
                     *       "members": [
                     *         {
                     *           "principal": "analyst-7",
                     *           "role": "analyst",
                     *           "added_at": "2026-11-20T09:30:00Z"
                     *         }
                     *       ],
                     *       "budget": {
                     *         "limit": 25,
                     *         "spent": 3,
                     *         "remaining": 22
                     *       },
                     *       "entity_ids": [
                     *         "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12"
                     *       ],
                     *       "finding": null,
                     *       "sequence": 4,
                     *       "events_url": "https://tas.example/v1/cases/018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30/events",
                     *       "created_at": "2026-11-19T14:00:00Z",
                     *       "updated_at": "2026-11-20T09:30:00Z",
                     *       "closed_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["CaseOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    releaseCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the case (uuid). */
                case_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "reason": "Preservation order lifted",
                 *       "reference": "PO-2026-118"
                 *     }
                 */
                "application/json": components["schemas"]["CaseHoldIn"];
            };
        };
        responses: {
            /** @description The case after the command. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "case_id": "018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30",
                     *       "state": "open",
                     *       "legal_hold": false,
                     *       "title": "Mule ring, north region",
                     *       "purpose": "investigation",
                     *       "authorization": {
                     *         "kind": "court_order",
                     *         "reference": "CO-2026-21",
                     *         "issued_by": "District Court"
                     *       },
                     *       "members": [
                     *         {
                     *           "principal": "analyst-7",
                     *           "role": "analyst",
                     *           "added_at": "2026-11-20T09:30:00Z"
                     *         }
                     *       ],
                     *       "budget": {
                     *         "limit": 25,
                     *         "spent": 3,
                     *         "remaining": 22
                     *       },
                     *       "entity_ids": [
                     *         "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12"
                     *       ],
                     *       "finding": null,
                     *       "sequence": 6,
                     *       "events_url": "https://tas.example/v1/cases/018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30/events",
                     *       "created_at": "2026-11-19T14:00:00Z",
                     *       "updated_at": "2026-11-20T09:30:00Z",
                     *       "closed_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["CaseOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    reviewCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the case (uuid). */
                case_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "outcome": "sign_off",
                 *       "note": "Evidence complete for referral"
                 *     }
                 */
                "application/json": components["schemas"]["CaseReviewIn"];
            };
        };
        responses: {
            /** @description The case after the command. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "case_id": "018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30",
                     *       "state": "signed_off",
                     *       "legal_hold": false,
                     *       "title": "Mule ring, north region",
                     *       "purpose": "investigation",
                     *       "authorization": {
                     *         "kind": "court_order",
                     *         "reference": "CO-2026-21",
                     *         "issued_by": "District Court"
                     *       },
                     *       "members": [
                     *         {
                     *           "principal": "analyst-7",
                     *           "role": "analyst",
                     *           "added_at": "2026-11-20T09:30:00Z"
                     *         }
                     *       ],
                     *       "budget": {
                     *         "limit": 25,
                     *         "spent": 3,
                     *         "remaining": 22
                     *       },
                     *       "entity_ids": [
                     *         "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12"
                     *       ],
                     *       "finding": null,
                     *       "sequence": 7,
                     *       "events_url": "https://tas.example/v1/cases/018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30/events",
                     *       "created_at": "2026-11-19T14:00:00Z",
                     *       "updated_at": "2026-11-20T09:30:00Z",
                     *       "closed_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["CaseOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    getCaseTimeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the case (uuid). */
                case_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Case events in observed order. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "event_id": "018f3a70-11ab-7e4f-8a5b-6c7d8e9f0a1b",
                     *         "type": "CaseChanged",
                     *         "stream": "case",
                     *         "stream_id": "018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30",
                     *         "sequence": 1,
                     *         "occurred_at": "2026-11-19T14:00:00Z",
                     *         "data": {
                     *           "case_id": "018f3a70-11aa-7d3e-a4c2-7e5f1b2c9d30",
                     *           "change": "opened",
                     *           "state": "open",
                     *           "legal_hold": false,
                     *           "principal": "key:investigations",
                     *           "summary": "Case opened"
                     *         }
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["EventEnvelope"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    findEntities: {
        parameters: {
            query: {
                /** @description ISO 3166-1 alpha-2, upper case: the region a phone number without an international prefix is read in, as `claim.country` is. */
                country?: string;
                limit?: number;
                /** @description A registered artifact type id (GET /v1/registry/artifact-types), for example `EMAIL`, `PHONE`, `DOMAIN`. */
                type: string;
                /** @description The value as presented; the service normalises it as it does when resolving an inquiry. */
                value: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entities carrying the value; none is an empty list. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "EMAIL",
                     *       "normalised": "jane.doe@example.org",
                     *       "entities": [
                     *         {
                     *           "entity_id": "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12",
                     *           "held_as": "anchor",
                     *           "first_seen_at": "2026-11-12T16:05:00Z",
                     *           "entity_url": "/v1/entities/018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["EntityFindOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    getEntity: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the entity (uuid). */
                entity_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entity as the tenant may see it. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "entity_id": "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12",
                     *       "presentations": [
                     *         {
                     *           "type": "EMAIL",
                     *           "value": "jane.doe@example.org"
                     *         },
                     *         {
                     *           "type": "PHONE",
                     *           "value": "+442079460321"
                     *         }
                     *       ],
                     *       "created_at": "2026-11-12T16:05:00Z",
                     *       "latest_assessment": {
                     *         "assessment_id": "018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c77",
                     *         "inquiry_id": "018f3a71-0b2c-7e44-9a13-2c4d6e8f0a15",
                     *         "score": 34,
                     *         "low": 3,
                     *         "high": 77,
                     *         "preliminary": false,
                     *         "as_of": "2026-11-20T09:30:00Z",
                     *         "methodology_version": "trust-method/3",
                     *         "label": {
                     *           "value": "review",
                     *           "policy_version": 3
                     *         },
                     *         "evidence": {
                     *           "signals": 6,
                     *           "failed_signals": 1,
                     *           "contradictions": 1,
                     *           "by_provenance_class": {
                     *             "computed": 5,
                     *             "tenant_supplied": 1
                     *           },
                     *           "by_trust_band": {
                     *             "high": 2,
                     *             "medium": 3,
                     *             "low": 1
                     *           },
                     *           "oldest_observed_at": "2026-11-12T16:05:00Z",
                     *           "newest_observed_at": "2026-11-20T09:30:00Z"
                     *         },
                     *         "entity_id": "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12"
                     *       },
                     *       "ledger_url": "https://tas.example/v1/entities/018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12/ledger"
                     *     }
                     */
                    "application/json": components["schemas"]["EntityOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    getEntityLedger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the entity (uuid). */
                entity_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ledger entries, oldest first. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "entry_id": "018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c77",
                     *         "sequence": 2,
                     *         "assessment": {
                     *           "assessment_id": "018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c77",
                     *           "inquiry_id": "018f3a71-0b2c-7e44-9a13-2c4d6e8f0a15",
                     *           "score": 34,
                     *           "low": 3,
                     *           "high": 77,
                     *           "preliminary": false,
                     *           "as_of": "2026-11-20T09:30:00Z",
                     *           "methodology_version": "trust-method/3",
                     *           "label": {
                     *             "value": "review",
                     *             "policy_version": 3
                     *           },
                     *           "evidence": {
                     *             "signals": 6,
                     *             "failed_signals": 1,
                     *             "contradictions": 1,
                     *             "by_provenance_class": {
                     *               "computed": 5,
                     *               "tenant_supplied": 1
                     *             },
                     *             "by_trust_band": {
                     *               "high": 2,
                     *               "medium": 3,
                     *               "low": 1
                     *             },
                     *             "oldest_observed_at": "2026-11-12T16:05:00Z",
                     *             "newest_observed_at": "2026-11-20T09:30:00Z"
                     *           },
                     *           "entity_id": "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12"
                     *         },
                     *         "inputs": {
                     *           "methodology_version": "trust-method/3",
                     *           "as_of": "2026-11-20T09:30:00Z",
                     *           "evidence": [
                     *             {
                     *               "provenance_class": "computed",
                     *               "trust_band": "high",
                     *               "observed_at": "2026-11-20T09:30:00Z",
                     *               "disposition": "neutral"
                     *             },
                     *             {
                     *               "provenance_class": "computed",
                     *               "trust_band": "high",
                     *               "observed_at": "2026-11-12T16:05:00Z",
                     *               "disposition": "supports",
                     *               "strength": "weak"
                     *             },
                     *             {
                     *               "provenance_class": "computed",
                     *               "trust_band": "medium",
                     *               "observed_at": "2026-11-20T09:30:00Z",
                     *               "disposition": "neutral"
                     *             },
                     *             {
                     *               "provenance_class": "computed",
                     *               "trust_band": "medium",
                     *               "observed_at": "2026-11-20T09:30:00Z",
                     *               "disposition": "neutral"
                     *             },
                     *             {
                     *               "provenance_class": "computed",
                     *               "trust_band": "low",
                     *               "observed_at": "2026-11-20T09:30:00Z",
                     *               "disposition": "neutral"
                     *             },
                     *             {
                     *               "provenance_class": "tenant_supplied",
                     *               "trust_band": "medium",
                     *               "observed_at": "2026-11-20T09:30:00Z",
                     *               "disposition": "weakens",
                     *               "strength": "strong"
                     *             }
                     *           ],
                     *           "absences": 1
                     *         },
                     *         "recorded_at": "2026-11-20T09:30:00Z"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["LedgerEntryOut"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description String pairs. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": components["schemas"]["Liveness"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    createInquiry: {
        parameters: {
            query?: never;
            header?: {
                /** @description The body's `idempotency_key` by its header name (1-128 characters), with the same rules (I17). Both given and different: 422 `idempotency_key_conflict` at `["header","Idempotency-Key"]`. */
                "Idempotency-Key"?: string;
                /** @description Declared purpose, for gateways that route on headers. When sent it must equal the body's `purpose` (rule I13). */
                "X-Purpose"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "subject": {
                 *         "presentations": [
                 *           {
                 *             "type": "EMAIL",
                 *             "value": "jane.doe@example.org"
                 *           },
                 *           {
                 *             "type": "PHONE",
                 *             "value": "+44 20 7946 0321"
                 *           }
                 *         ]
                 *       },
                 *       "intent": "pre_transaction",
                 *       "purpose": "fraud_prevention",
                 *       "stake": {
                 *         "kind": "payment",
                 *         "amount": 420,
                 *         "currency": "GBP",
                 *         "reversible": false,
                 *         "deadline_ms": 1500
                 *       },
                 *       "tier_ceiling": "t1",
                 *       "idempotency_key": "order-88213"
                 *     }
                 */
                "application/json": components["schemas"]["InquiryRequest"];
            };
        };
        responses: {
            /** @description The inquiry and its first assessment. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "inquiry_id": "018f3a71-0b2c-7e44-9a13-2c4d6e8f0a15",
                     *       "status": "concluded",
                     *       "assessment": {
                     *         "assessment_id": "018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c77",
                     *         "inquiry_id": "018f3a71-0b2c-7e44-9a13-2c4d6e8f0a15",
                     *         "score": 34,
                     *         "low": 3,
                     *         "high": 77,
                     *         "preliminary": false,
                     *         "as_of": "2026-11-20T09:30:00Z",
                     *         "methodology_version": "trust-method/3",
                     *         "label": {
                     *           "value": "review",
                     *           "policy_version": 3
                     *         },
                     *         "evidence": {
                     *           "signals": 6,
                     *           "failed_signals": 1,
                     *           "contradictions": 1,
                     *           "by_provenance_class": {
                     *             "computed": 5,
                     *             "tenant_supplied": 1
                     *           },
                     *           "by_trust_band": {
                     *             "high": 2,
                     *             "medium": 3,
                     *             "low": 1
                     *           },
                     *           "oldest_observed_at": "2026-11-12T16:05:00Z",
                     *           "newest_observed_at": "2026-11-20T09:30:00Z"
                     *         },
                     *         "entity_id": "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12"
                     *       },
                     *       "findings": {
                     *         "inquiry_id": "018f3a71-0b2c-7e44-9a13-2c4d6e8f0a15",
                     *         "assessment_id": "018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c77",
                     *         "subject": [
                     *           {
                     *             "type": "EMAIL",
                     *             "value": "jane.doe@example.org"
                     *           },
                     *           {
                     *             "type": "PHONE",
                     *             "value": "+44 20 7946 0321"
                     *           }
                     *         ],
                     *         "findings": [
                     *           {
                     *             "finding_id": "f-1",
                     *             "about": "jane.doe@example.org",
                     *             "about_type": "EMAIL",
                     *             "kind": "disposable_email",
                     *             "statement": "The domain example.org is not a throw-away inbox provider.",
                     *             "provenance_class": "computed",
                     *             "trust_band": "high",
                     *             "observed_at": "2026-11-20T09:30:00Z",
                     *             "data_class": "C1",
                     *             "disposition": "neutral"
                     *           },
                     *           {
                     *             "finding_id": "f-2",
                     *             "about": "+44 20 7946 0321",
                     *             "about_type": "PHONE",
                     *             "kind": "graph_shared_value",
                     *             "statement": "The phone number is also carried by 2 other entities of yours, 1 of them with an adverse outcome.",
                     *             "provenance_class": "tenant_supplied",
                     *             "trust_band": "medium",
                     *             "observed_at": "2026-11-20T09:30:00Z",
                     *             "data_class": "C1",
                     *             "disposition": "weakens",
                     *             "strength": "strong"
                     *           }
                     *         ],
                     *         "absences": [
                     *           {
                     *             "about": "example.org",
                     *             "about_type": "DOMAIN",
                     *             "kind": "timeout",
                     *             "reason": "The domain registration look-up did not answer within its time."
                     *           }
                     *         ],
                     *         "coverage": {
                     *           "tier_ceiling": "t1",
                     *           "checks_run": 9,
                     *           "checks_answered": 8,
                     *           "checks_unanswered": 1
                     *         },
                     *         "generated_at": "2026-11-20T09:30:00Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["InquiryResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    getInquiry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the inquiry (uuid). */
                inquiry_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The inquiry and its latest assessment. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "inquiry_id": "018f3a71-0b2c-7e44-9a13-2c4d6e8f0a15",
                     *       "status": "concluded",
                     *       "assessment": {
                     *         "assessment_id": "018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c77",
                     *         "inquiry_id": "018f3a71-0b2c-7e44-9a13-2c4d6e8f0a15",
                     *         "score": 34,
                     *         "low": 3,
                     *         "high": 77,
                     *         "preliminary": false,
                     *         "as_of": "2026-11-20T09:30:00Z",
                     *         "methodology_version": "trust-method/3",
                     *         "label": {
                     *           "value": "review",
                     *           "policy_version": 3
                     *         },
                     *         "evidence": {
                     *           "signals": 6,
                     *           "failed_signals": 1,
                     *           "contradictions": 1,
                     *           "by_provenance_class": {
                     *             "computed": 5,
                     *             "tenant_supplied": 1
                     *           },
                     *           "by_trust_band": {
                     *             "high": 2,
                     *             "medium": 3,
                     *             "low": 1
                     *           },
                     *           "oldest_observed_at": "2026-11-12T16:05:00Z",
                     *           "newest_observed_at": "2026-11-20T09:30:00Z"
                     *         },
                     *         "entity_id": "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12"
                     *       },
                     *       "findings": {
                     *         "inquiry_id": "018f3a71-0b2c-7e44-9a13-2c4d6e8f0a15",
                     *         "assessment_id": "018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c77",
                     *         "subject": [
                     *           {
                     *             "type": "EMAIL",
                     *             "value": "jane.doe@example.org"
                     *           },
                     *           {
                     *             "type": "PHONE",
                     *             "value": "+44 20 7946 0321"
                     *           }
                     *         ],
                     *         "findings": [
                     *           {
                     *             "finding_id": "f-1",
                     *             "about": "jane.doe@example.org",
                     *             "about_type": "EMAIL",
                     *             "kind": "disposable_email",
                     *             "statement": "The domain example.org is not a throw-away inbox provider.",
                     *             "provenance_class": "computed",
                     *             "trust_band": "high",
                     *             "observed_at": "2026-11-20T09:30:00Z",
                     *             "data_class": "C1",
                     *             "disposition": "neutral"
                     *           },
                     *           {
                     *             "finding_id": "f-2",
                     *             "about": "+44 20 7946 0321",
                     *             "about_type": "PHONE",
                     *             "kind": "graph_shared_value",
                     *             "statement": "The phone number is also carried by 2 other entities of yours, 1 of them with an adverse outcome.",
                     *             "provenance_class": "tenant_supplied",
                     *             "trust_band": "medium",
                     *             "observed_at": "2026-11-20T09:30:00Z",
                     *             "data_class": "C1",
                     *             "disposition": "weakens",
                     *             "strength": "strong"
                     *           }
                     *         ],
                     *         "absences": [
                     *           {
                     *             "about": "example.org",
                     *             "about_type": "DOMAIN",
                     *             "kind": "timeout",
                     *             "reason": "The domain registration look-up did not answer within its time."
                     *           }
                     *         ],
                     *         "coverage": {
                     *           "tier_ceiling": "t1",
                     *           "checks_run": 9,
                     *           "checks_answered": 8,
                     *           "checks_unanswered": 1
                     *         },
                     *         "generated_at": "2026-11-20T09:30:00Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["InquiryResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    streamInquiryEvents: {
        parameters: {
            query?: {
                /** @description Deprecated: an API key in the URL. Refused (401) unless the operator allows it (TAS_STREAM_ACCESS_TOKEN=allow); then answered with a `Deprecation` header. Use `ticket`. */
                access_token?: string;
                /** @description Replay from after this event (its SSE id). `Last-Event-ID`, when sent, wins. */
                after?: string;
                /** @description For a browser EventSource, which cannot send an Authorization header: a one-time stream ticket from `POST .../events/tickets`. */
                ticket?: string;
            };
            header?: {
                /** @description Sent by an SSE client on reconnect; wins over a stale `after`. */
                "Last-Event-ID"?: string;
            };
            path: {
                /** @description Id of the inquiry (uuid). */
                inquiry_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Server-sent events; each `data:` of an event with an `id:` is an EventEnvelope. Two live signals carry no `id:` (never stored, never replayed): `StreamEnding` ({stream_id, reason}) just before the server ends the response (`shutdown`: reconnect with Last-Event-ID; `monitor_deleted`, `key_revoked`, `key_expired`: do not), and on monitor streams `MonitorChecked` ({stream_id, checked_at, unchanged}) after a rescan that changed nothing. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description The stream has ended and the cursor is at its end: stop reconnecting. */
            204: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Gone"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    mintInquiryEventsTicket: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the inquiry (uuid). */
                inquiry_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ticket and the stream URL carrying it. */
            201: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ticket": "tst_…shown once…",
                     *       "events_url": "https://tas.example/v1/inquiries/018f3a71-0b2c-7e44-9a13-2c4d6e8f0a15/events?ticket=tst_…",
                     *       "expires_at": "2026-11-20T09:31:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["StreamTicketOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    createMaterial: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "kind": "text",
                 *       "media_type": "text/plain",
                 *       "purpose": "fraud_prevention",
                 *       "text": "Please pay the deposit to jane.doe@example.org or call +44 20 7946 0321."
                 *     }
                 */
                "application/json": components["schemas"]["MaterialCreate"];
            };
        };
        responses: {
            /** @description The declared material, with an upload URL when bytes follow. */
            201: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "material_id": "mat_018f3a73-7e21-7b3c-9d4e-5f6a7b8c9d0e",
                     *       "kind": "text",
                     *       "media_type": "text/plain",
                     *       "status": "extracted",
                     *       "sha256": "3b7c1f0e9a2d4c6b8e0f1a3c5d7e9b2a4c6e8f0a1b3d5f7a9c0e2b4d6f8a0c1e",
                     *       "size_bytes": 74,
                     *       "retention_mode": "standard",
                     *       "data_class": "C1",
                     *       "case_id": null,
                     *       "upload": null,
                     *       "failure_reason": null,
                     *       "derivation": {
                     *         "extractor_version": "text/1",
                     *         "extracted_at": "2026-11-20T09:30:01Z",
                     *         "items": 2,
                     *         "outcomes_only": false,
                     *         "bytes_stored": true
                     *       },
                     *       "created_at": "2026-11-20T09:30:00Z",
                     *       "updated_at": "2026-11-20T09:30:01Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MaterialOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    getMaterial: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the material. */
                material_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The material. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "material_id": "mat_018f3a73-7e21-7b3c-9d4e-5f6a7b8c9d0e",
                     *       "kind": "text",
                     *       "media_type": "text/plain",
                     *       "status": "extracted",
                     *       "sha256": "3b7c1f0e9a2d4c6b8e0f1a3c5d7e9b2a4c6e8f0a1b3d5f7a9c0e2b4d6f8a0c1e",
                     *       "size_bytes": 74,
                     *       "retention_mode": "standard",
                     *       "data_class": "C1",
                     *       "case_id": null,
                     *       "upload": null,
                     *       "failure_reason": null,
                     *       "derivation": {
                     *         "extractor_version": "text/1",
                     *         "extracted_at": "2026-11-20T09:30:01Z",
                     *         "items": 2,
                     *         "outcomes_only": false,
                     *         "bytes_stored": true
                     *       },
                     *       "created_at": "2026-11-20T09:30:00Z",
                     *       "updated_at": "2026-11-20T09:30:01Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MaterialOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    uploadMaterialContent: {
        parameters: {
            query: {
                /** @description The authorisation the upload URL carries; copy the URL as given. */
                token: string;
            };
            header?: never;
            path: {
                /** @description Id of the material. */
                material_id: string;
            };
            cookie?: never;
        };
        /** @description The bytes, exactly as declared (any Content-Type). */
        requestBody: {
            content: {
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description Received; extraction is queued. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "material_id": "mat_018f3a73-7e21-7b3c-9d4e-5f6a7b8c9d0e",
                     *       "kind": "document",
                     *       "media_type": "application/pdf",
                     *       "status": "received",
                     *       "sha256": "3b7c1f0e9a2d4c6b8e0f1a3c5d7e9b2a4c6e8f0a1b3d5f7a9c0e2b4d6f8a0c1e",
                     *       "size_bytes": 48213,
                     *       "retention_mode": "standard",
                     *       "data_class": "C1",
                     *       "case_id": null,
                     *       "upload": null,
                     *       "failure_reason": null,
                     *       "derivation": {
                     *         "extractor_version": null,
                     *         "extracted_at": null,
                     *         "items": 0,
                     *         "outcomes_only": false,
                     *         "bytes_stored": true
                     *       },
                     *       "created_at": "2026-11-20T09:30:00Z",
                     *       "updated_at": "2026-11-20T09:30:01Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MaterialOut"];
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ValidationError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getMaterialExtraction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the material. */
                material_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Extracted things with their bindings. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "material_id": "mat_018f3a73-7e21-7b3c-9d4e-5f6a7b8c9d0e",
                     *       "status": "extracted",
                     *       "extractor_version": "text/1",
                     *       "outcomes_only": false,
                     *       "items": [
                     *         {
                     *           "type": "EMAIL",
                     *           "value": "jane.doe@example.org",
                     *           "binding": {
                     *             "binding_id": "018f3a73-7e22-7c4d-8e5f-6a7b8c9d0e1f",
                     *             "target_kind": "artifact",
                     *             "target_id": "EMAIL:jane.doe@example.org",
                     *             "locator_kind": "text",
                     *             "locator": {
                     *               "start": 26,
                     *               "end": 46
                     *             },
                     *             "confidence": 0.98
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ExtractionOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    createMonitor: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request gets the first answer again (with `Idempotent-Replayed: true`); with another request it is refused (rule I17); while the first is still running, 409 with Retry-After. 1-128 visible ASCII characters, per tenant, mode and operation. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "subject": {
                 *         "presentations": [
                 *           {
                 *             "type": "DOMAIN",
                 *             "value": "example-shop.example"
                 *           }
                 *         ]
                 *       },
                 *       "intent": "counterparty_check",
                 *       "purpose": "fraud_prevention",
                 *       "stake": {
                 *         "kind": "listing"
                 *       },
                 *       "cadence_seconds": 86400,
                 *       "triggers": {
                 *         "label_change": true,
                 *         "score_below": 40
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["MonitorCreate"];
            };
        };
        responses: {
            /** @description The monitor. */
            201: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "monitor_id": "018f3a75-1b2c-7d3e-8f4a-5b6c7d8e9f0a",
                     *       "state": "active",
                     *       "subject": {
                     *         "presentations": [
                     *           {
                     *             "type": "DOMAIN",
                     *             "value": "example-shop.example"
                     *           }
                     *         ]
                     *       },
                     *       "intent": "counterparty_check",
                     *       "purpose": "fraud_prevention",
                     *       "stake": {
                     *         "kind": "listing"
                     *       },
                     *       "cadence_seconds": 86400,
                     *       "triggers": {
                     *         "label_change": true,
                     *         "score_below": 40
                     *       },
                     *       "case_id": null,
                     *       "next_run_at": "2026-11-21T09:30:00Z",
                     *       "last_assessment": null,
                     *       "last_checked_at": null,
                     *       "unchanged_rescans": 0,
                     *       "events_url": "https://tas.example/v1/monitors/018f3a75-1b2c-7d3e-8f4a-5b6c7d8e9f0a/events",
                     *       "created_at": "2026-11-20T09:30:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MonitorOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    getMonitor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the monitor (uuid). */
                monitor_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The monitor. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "monitor_id": "018f3a75-1b2c-7d3e-8f4a-5b6c7d8e9f0a",
                     *       "state": "active",
                     *       "subject": {
                     *         "presentations": [
                     *           {
                     *             "type": "DOMAIN",
                     *             "value": "example-shop.example"
                     *           }
                     *         ]
                     *       },
                     *       "intent": "counterparty_check",
                     *       "purpose": "fraud_prevention",
                     *       "stake": {
                     *         "kind": "listing"
                     *       },
                     *       "cadence_seconds": 86400,
                     *       "triggers": {
                     *         "label_change": true,
                     *         "score_below": 40
                     *       },
                     *       "case_id": null,
                     *       "next_run_at": "2026-11-21T09:30:00Z",
                     *       "last_assessment": {
                     *         "assessment_id": "018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c77",
                     *         "inquiry_id": "018f3a71-0b2c-7e44-9a13-2c4d6e8f0a15",
                     *         "score": 34,
                     *         "low": 3,
                     *         "high": 77,
                     *         "preliminary": false,
                     *         "as_of": "2026-11-20T09:30:00Z",
                     *         "methodology_version": "trust-method/3",
                     *         "label": {
                     *           "value": "review",
                     *           "policy_version": 3
                     *         },
                     *         "evidence": {
                     *           "signals": 6,
                     *           "failed_signals": 1,
                     *           "contradictions": 1,
                     *           "by_provenance_class": {
                     *             "computed": 5,
                     *             "tenant_supplied": 1
                     *           },
                     *           "by_trust_band": {
                     *             "high": 2,
                     *             "medium": 3,
                     *             "low": 1
                     *           },
                     *           "oldest_observed_at": "2026-11-12T16:05:00Z",
                     *           "newest_observed_at": "2026-11-20T09:30:00Z"
                     *         },
                     *         "entity_id": "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12"
                     *       },
                     *       "last_checked_at": "2026-11-20T09:30:00Z",
                     *       "unchanged_rescans": 4,
                     *       "events_url": "https://tas.example/v1/monitors/018f3a75-1b2c-7d3e-8f4a-5b6c7d8e9f0a/events",
                     *       "created_at": "2026-11-20T09:30:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MonitorOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteMonitor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the monitor (uuid). */
                monitor_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The watch is closed. */
            204: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    streamMonitorEvents: {
        parameters: {
            query?: {
                /** @description Deprecated: an API key in the URL. Refused (401) unless the operator allows it (TAS_STREAM_ACCESS_TOKEN=allow); then answered with a `Deprecation` header. Use `ticket`. */
                access_token?: string;
                /** @description Replay from after this event (its SSE id). `Last-Event-ID`, when sent, wins. */
                after?: string;
                /** @description For a browser EventSource, which cannot send an Authorization header: a one-time stream ticket from `POST .../events/tickets`. */
                ticket?: string;
            };
            header?: {
                /** @description Sent by an SSE client on reconnect; wins over a stale `after`. */
                "Last-Event-ID"?: string;
            };
            path: {
                /** @description Id of the monitor (uuid). */
                monitor_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Server-sent events; each `data:` of an event with an `id:` is an EventEnvelope. Two live signals carry no `id:` (never stored, never replayed): `StreamEnding` ({stream_id, reason}) just before the server ends the response (`shutdown`: reconnect with Last-Event-ID; `monitor_deleted`, `key_revoked`, `key_expired`: do not), and on monitor streams `MonitorChecked` ({stream_id, checked_at, unchanged}) after a rescan that changed nothing. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description The stream has ended and the cursor is at its end: stop reconnecting. */
            204: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Gone"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    mintMonitorEventsTicket: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the monitor (uuid). */
                monitor_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ticket and the stream URL carrying it. */
            201: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ticket": "tst_…shown once…",
                     *       "events_url": "https://tas.example/v1/monitors/018f3a78-4e60-7b7c-8d9e-0f1a2b3c4d5f/events?ticket=tst_…",
                     *       "expires_at": "2026-11-20T09:31:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["StreamTicketOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    createObservation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request gets the first answer again (with `Idempotent-Replayed: true`); with another request it is refused (rule I17); while the first is still running, 409 with Retry-After. 1-128 visible ASCII characters, per tenant, mode and operation. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "subject": {
                 *         "presentations": [
                 *           {
                 *             "type": "EMAIL",
                 *             "value": "jane.doe@example.org"
                 *           }
                 *         ]
                 *       },
                 *       "provenance_class": "tenant_supplied",
                 *       "summary": "Chargeback received on order 88213",
                 *       "stance": "weakens",
                 *       "observed_at": "2026-11-20T09:30:00Z",
                 *       "purpose": "fraud_prevention"
                 *     }
                 */
                "application/json": components["schemas"]["ObservationIn"];
            };
        };
        responses: {
            /** @description The recorded observation. */
            201: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "observation_id": "018f3a72-5d10-7a2b-8c3d-4e5f6a7b8c9d",
                     *       "kind": "observation",
                     *       "provenance_class": "tenant_supplied",
                     *       "entity_id": "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12",
                     *       "assessment_id": null,
                     *       "case_id": null,
                     *       "data_class": "C1",
                     *       "observed_at": "2026-11-20T09:30:00Z",
                     *       "recorded_at": "2026-11-20T09:30:02Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ObservationOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    createObservationBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request gets the first answer again (with `Idempotent-Replayed: true`); with another request it is refused (rule I17); while the first is still running, 409 with Retry-After. 1-128 visible ASCII characters, per tenant, mode and operation. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example [
                 *       {
                 *         "subject": {
                 *           "presentations": [
                 *             {
                 *               "type": "PHONE",
                 *               "value": "+44 20 7946 0321"
                 *             }
                 *           ]
                 *         },
                 *         "provenance_class": "tenant_supplied",
                 *         "summary": "Delivered and signed for",
                 *         "stance": "supports",
                 *         "observed_at": "2026-11-20T09:30:00Z",
                 *         "purpose": "fraud_prevention"
                 *       },
                 *       {
                 *         "subject": {
                 *           "entity_id": "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12"
                 *         },
                 *         "provenance_class": "tenant_supplied",
                 *         "summary": "Card declined three times in ten minutes",
                 *         "observed_at": "2026-11-20T09:30:00Z",
                 *         "purpose": "fraud_prevention"
                 *       }
                 *     ]
                 */
                "application/json": components["schemas"]["ObservationIn"][];
            };
        };
        responses: {
            /** @description The recorded observations, in request order. */
            201: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "observation_id": "018f3a72-5d10-7a2b-8c3d-4e5f6a7b8c9d",
                     *         "kind": "observation",
                     *         "provenance_class": "tenant_supplied",
                     *         "entity_id": "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12",
                     *         "assessment_id": null,
                     *         "case_id": null,
                     *         "data_class": "C1",
                     *         "observed_at": "2026-11-20T09:30:00Z",
                     *         "recorded_at": "2026-11-20T09:30:02Z"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["ObservationOut"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    createOutcome: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request gets the first answer again (with `Idempotent-Replayed: true`); with another request it is refused (rule I17); while the first is still running, 409 with Retry-After. 1-128 visible ASCII characters, per tenant, mode and operation. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "assessment_id": "018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c77",
                 *       "decision_ref": "order-88213",
                 *       "kind": "reversed",
                 *       "observed_at": "2026-11-20T09:30:00Z",
                 *       "detail": "Chargeback, reason 10.4"
                 *     }
                 */
                "application/json": components["schemas"]["OutcomeIn"];
            };
        };
        responses: {
            /** @description The recorded outcome. */
            201: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "observation_id": "018f3a72-5d10-7a2b-8c3d-4e5f6a7b8c9d",
                     *       "kind": "outcome",
                     *       "provenance_class": "tenant_supplied",
                     *       "entity_id": "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12",
                     *       "assessment_id": "018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c77",
                     *       "case_id": null,
                     *       "data_class": "C1",
                     *       "observed_at": "2026-11-20T09:30:00Z",
                     *       "recorded_at": "2026-11-20T09:30:02Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ObservationOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    createOutcomeBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same request gets the first answer again (with `Idempotent-Replayed: true`); with another request it is refused (rule I17); while the first is still running, 409 with Retry-After. 1-128 visible ASCII characters, per tenant, mode and operation. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example [
                 *       {
                 *         "assessment_id": "018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c77",
                 *         "decision_ref": "order-88213",
                 *         "kind": "reversed",
                 *         "observed_at": "2026-11-20T09:30:00Z"
                 *       },
                 *       {
                 *         "assessment_id": "018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c78",
                 *         "decision_ref": "loan-5521",
                 *         "kind": "repaid",
                 *         "observed_at": "2026-11-20T09:30:00Z"
                 *       }
                 *     ]
                 */
                "application/json": components["schemas"]["OutcomeIn"][];
            };
        };
        responses: {
            /** @description The recorded outcomes, in request order. */
            201: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "observation_id": "018f3a72-5d10-7a2b-8c3d-4e5f6a7b8c9d",
                     *         "kind": "outcome",
                     *         "provenance_class": "tenant_supplied",
                     *         "entity_id": "018f3a6e-2c1d-7b4a-9e21-5a0c3d7f9b12",
                     *         "assessment_id": "018f3a6e-2c1e-7c11-8f02-3b9d4e6a1c77",
                     *         "case_id": null,
                     *         "data_class": "C1",
                     *         "observed_at": "2026-11-20T09:30:00Z",
                     *         "recorded_at": "2026-11-20T09:30:02Z"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["ObservationOut"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    listArtifactTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Registered artifact types. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "EMAIL",
                     *         "description": "An email address.",
                     *         "normaliser": "email"
                     *       },
                     *       {
                     *         "id": "PHONE",
                     *         "description": "A telephone number.",
                     *         "normaliser": "e164"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["RegistryEntryOut"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    listIntents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Registered intents. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "pre_transaction",
                     *         "description": "Deciding whether to accept a payment or order."
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["RegistryEntryOut"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    listPurposes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Registered purposes. */
            200: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "fraud_prevention",
                     *         "description": "Preventing fraud against the tenant or its customers."
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["RegistryEntryOut"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    openSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "purpose": "fraud_prevention",
                 *       "intent": "onboarding",
                 *       "subject": {
                 *         "claim": {
                 *           "name": "Jane Doe",
                 *           "country": "GB"
                 *         }
                 *       },
                 *       "stake": {
                 *         "kind": "account"
                 *       },
                 *       "retention_mode": "standard",
                 *       "idle_timeout_seconds": 300
                 *     }
                 */
                "application/json": components["schemas"]["SessionOpen"];
            };
        };
        responses: {
            /** @description The session, its WebSocket URL and one-time token. */
            201: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "session_id": "018f3a79-5f6a-7b7c-8d8e-9f0a1b2c3d4e",
                     *       "state": "open",
                     *       "ws_url": "wss://tas.example/v1/sessions/018f3a79-5f6a-7b7c-8d8e-9f0a1b2c3d4e/socket",
                     *       "token": "tas_sess_…shown once…",
                     *       "expires_at": "2026-11-20T09:35:00Z",
                     *       "retention_mode": "standard"
                     *     }
                     */
                    "application/json": components["schemas"]["SessionOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    closeSession: {
        parameters: {
            query?: {
                reason?: string;
            };
            header?: never;
            path: {
                /** @description Id of the session (uuid). */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The close is accepted. */
            202: {
                headers: {
                    "X-Service-Audit-Id": components["headers"]["AuditId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "session_id": "018f3a79-5f6a-7b7c-8d8e-9f0a1b2c3d4e",
                     *       "state": "closing",
                     *       "reason": "closed by the tenant"
                     *     }
                     */
                    "application/json": components["schemas"]["SessionCloseOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            502: components["responses"]["EngineFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    deliverAssessmentRevised: {
        parameters: {
            query?: never;
            header: {
                /** @description Delivery id; the same on every retry, for de-duplication. */
                "webhook-id": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256>` over `id.timestamp.body` with the webhook secret. */
                "webhook-signature": string;
                /** @description Unix seconds when the delivery was signed; reject ones too old. */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventEnvelope"];
            };
        };
        responses: {
            /** @description Delivery accepted. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Delivery refused; retried on the published schedule. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverCaseChanged: {
        parameters: {
            query?: never;
            header: {
                /** @description Delivery id; the same on every retry, for de-duplication. */
                "webhook-id": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256>` over `id.timestamp.body` with the webhook secret. */
                "webhook-signature": string;
                /** @description Unix seconds when the delivery was signed; reject ones too old. */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventEnvelope"];
            };
        };
        responses: {
            /** @description Delivery accepted. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Delivery refused; retried on the published schedule. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverInquiryConcluded: {
        parameters: {
            query?: never;
            header: {
                /** @description Delivery id; the same on every retry, for de-duplication. */
                "webhook-id": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256>` over `id.timestamp.body` with the webhook secret. */
                "webhook-signature": string;
                /** @description Unix seconds when the delivery was signed; reject ones too old. */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventEnvelope"];
            };
        };
        responses: {
            /** @description Delivery accepted. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Delivery refused; retried on the published schedule. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deliverMonitorTriggered: {
        parameters: {
            query?: never;
            header: {
                /** @description Delivery id; the same on every retry, for de-duplication. */
                "webhook-id": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256>` over `id.timestamp.body` with the webhook secret. */
                "webhook-signature": string;
                /** @description Unix seconds when the delivery was signed; reject ones too old. */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventEnvelope"];
            };
        };
        responses: {
            /** @description Delivery accepted. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Delivery refused; retried on the published schedule. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
