#!/usr/bin/env bash
# The material worker reads text in images with the tesseract program and its
# English data (Debian's tesseract-ocr and tesseract-ocr-eng). Installs them
# when missing. Run by `npm test` (its pre-script: the material tests read
# text in images) and so by CI; safe to run by hand. `npm start` never runs
# it: starting a service installs nothing. Without tesseract the service
# starts all the same, says so, and /healthz reports `ocr: unavailable`; an
# image's text extraction is retried and then ends as failed (extractor_failed).
set -euo pipefail
if command -v tesseract >/dev/null 2>&1 && tesseract --list-langs 2>/dev/null | grep -qx eng; then exit 0; fi
if [[ $(id -u) != 0 ]]; then
  echo "ensure-tesseract: tesseract with English data is missing; install it with: sudo apt-get install tesseract-ocr tesseract-ocr-eng" >&2
  exit 0
fi
echo "installing Debian's tesseract-ocr (English) for OCR of image material"
export DEBIAN_FRONTEND=noninteractive
PKGS=(tesseract-ocr tesseract-ocr-eng)
(apt-get install -y --no-install-recommends "${PKGS[@]}" >/dev/null 2>&1) || (apt-get update >/dev/null 2>&1 && apt-get install -y --no-install-recommends "${PKGS[@]}" >/dev/null)
tesseract --list-langs 2>/dev/null | grep -qx eng
