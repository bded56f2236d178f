#!/usr/bin/env sh
# The README's five-minute tour, runnable: one inquiry and its findings, what
# the key may declare, a policy that gives labels, a monitor and its stream.
# Needs curl and jq. `npm start` prints the keys on its first run:
#
#   TAS=http://127.0.0.1:8080 KEY=tas_test_... ADMIN_KEY=tas_test_... sh examples/tour.sh
#
# KEY is the demo tenant's `test` key (or the one the banner prints), ADMIN_KEY
# its `test_admin` key (or `tas key mint --tenant ID --scopes admin --test`).
set -eu
: "${TAS:=http://127.0.0.1:8080}"
: "${KEY:?set KEY to a test key (npm start prints one)}"
: "${ADMIN_KEY:?set ADMIN_KEY to a test admin key of the same tenant}"

call() { # METHOD PATH [BODY] [KEY]
  curl -sS -X "$1" "$TAS$2" -H "Authorization: Bearer ${4:-$KEY}" -H 'Content-Type: application/json' ${3:+-d "$3"}
}

INQUIRY='{"subject":{"presentations":[{"type":"EMAIL","value":"billing@paypa1-login.com"}]},"intent":"counterparty_check","purpose":"fraud_prevention","stake":{"kind":"payment","amount":250,"currency":"EUR"}}'

echo '1. An inquiry: a score, its interval, and no label yet (no policy published).'
ANSWER=$(call POST /v1/inquiries "$INQUIRY")
echo "$ANSWER" | jq -c '{status, score: .assessment.score, low: .assessment.low, high: .assessment.high, label: .assessment.label}'

echo '2. Its findings and absences: what was found, how it was known, which way it points.'
echo "$ANSWER" | jq -r '.findings.findings[] | "   \(.disposition // "-")\t\(.kind // "-")\t\(.statement)"'
echo "$ANSWER" | jq -r '.findings.absences[]? | "   absent (\(.kind))\t\(.reason)"'

echo '3. What this key may declare: purposes, intents, artifact types.'
for list in purposes intents artifact-types; do
  printf '   %s: %s\n' "$list" "$(call GET "/v1/registry/$list" | jq -r '[.[].id] | join(", ")')"
done

echo '4. A policy (admin key): labels by score and width; scores never change.'
POLICY='{"allowed_purposes":["fraud_prevention"],"allowed_intents":["counterparty_check","pre_transaction"],"render_ceiling":"template","show_findings":true,"rules":[{"label":"decline","when":{"score_lte":30}},{"label":"proceed","when":{"score_gte":70,"width_lte":40}},{"label":"review","when":{}}]}'
call POST /v1/admin/policies "$POLICY" "$ADMIN_KEY" | jq -c '{policy_version, current}'
call POST /v1/inquiries "$INQUIRY" | jq -c '{score: .assessment.score, label: .assessment.label}'

echo '5. A monitor: the same question asked every minute, announced when the score moves by 5.'
MONITOR=$(call POST /v1/monitors '{"subject":{"presentations":[{"type":"EMAIL","value":"billing@paypa1-login.com"}]},"intent":"counterparty_check","purpose":"fraud_prevention","stake":{"kind":"payment","amount":250,"currency":"EUR"},"cadence_seconds":60,"triggers":{"score_moves_by":5}}')
MONITOR_ID=$(echo "$MONITOR" | jq -r .monitor_id)
echo "$MONITOR" | jq -c '{monitor_id, state, next_run_at}'
echo "   its event stream for 3 s (curl -N keeps it open; events arrive as the rescans announce them):"
curl -sN --max-time 3 "$TAS/v1/monitors/$MONITOR_ID/events" -H "Authorization: Bearer $KEY" -H 'Accept: text/event-stream' || true
echo
echo "   ended with: DELETE /v1/monitors/$MONITOR_ID"
call DELETE "/v1/monitors/$MONITOR_ID" >/dev/null
