#!/usr/bin/env sh
# The README's five-minute tour, runnable: one inquiry and its findings, what
# the key may declare, a policy that gives labels, a monitor and its stream.
# Needs curl and jq. `npm start` prints the keys on its first run:
#
#   KEY=tas_test_... ADMIN_KEY=tas_test_... sh examples/tour.sh
#
# KEY is the demo tenant's `test` key (or the one the banner prints), ADMIN_KEY
# its `test_admin` key (or `tas key mint --tenant ID --scopes admin --test`).
# It finds the service as the service is told where to listen: TAS (or
# TAS_URL) when set, otherwise http://HOST:PORT (127.0.0.1 and 8080 by default).
# It leaves the tenant as it found it: the policy it publishes for step 4 is
# followed, at the end, by the policy that was current before (or, when there
# was none, by one that allows every registered purpose and intent and gives
# no label, which is what no policy does), and the monitor is deleted.
set -eu
HOST_OF_SERVICE=${HOST:-127.0.0.1}
case "$HOST_OF_SERVICE" in 0.0.0.0 | ::) HOST_OF_SERVICE=127.0.0.1 ;; esac
: "${TAS:=${TAS_URL:-http://$HOST_OF_SERVICE:${PORT:-8080}}}"
: "${KEY:?set KEY to a test key (npm start prints one)}"
: "${ADMIN_KEY:?set ADMIN_KEY to a test admin key of the same tenant}"
for tool in curl jq; do
  command -v "$tool" >/dev/null 2>&1 || { echo "tour: needs $tool on the PATH" >&2; exit 1; }
done
if ! curl -s -o /dev/null --max-time 5 "$TAS/healthz"; then
  echo "tour: cannot connect to the service at $TAS: start it with npm start, or set TAS_URL (or PORT) to where it listens" >&2
  exit 1
fi

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
# What was current before, to put back at the end; the tour's policy allows what was allowed (everything registered, with no policy).
BEFORE=$(call GET /v1/admin/policies "" "$ADMIN_KEY" | jq -c 'map(select(.current))[0] // null | if . == null then . else del(.policy_version, .created_at, .current) end')
if [ "$BEFORE" = null ]; then
  PURPOSES=$(call GET /v1/registry/purposes | jq -c '[.[].id]')
  INTENTS=$(call GET /v1/registry/intents | jq -c '[.[].id]')
  RESTORE=$(jq -nc --argjson p "$PURPOSES" --argjson i "$INTENTS" '{allowed_purposes: $p, allowed_intents: $i, render_ceiling: "template", show_findings: true, rules: []}')
else
  RESTORE=$BEFORE
fi
restore() { call POST /v1/admin/policies "$RESTORE" "$ADMIN_KEY" >/dev/null; }
trap restore EXIT
POLICY=$(echo "$RESTORE" | jq -c '.rules = [{"label":"decline","when":{"score_lte":30}},{"label":"proceed","when":{"score_gte":70,"width_lte":40}},{"label":"review","when":{}}]')
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
echo "   the tenant's policy is put back as the tour found it (a new version with the same terms)."
