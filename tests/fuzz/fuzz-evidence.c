/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz-evidence: the JSON reader (src/lib/jsonread.c) and the evidence
 * document reader (src/lib/evidence-read.c), which read what other hosts
 * and earlier runs wrote (iosched-apply report, validate, the views).  The
 * input is one document: parsed as JSON, as an evidence document and as an
 * iosched-bench --compare report; a document read is written back
 * (ios_evidence_json) and that text must parse again with the same records.
 */
#include "fuzz-util.h"
#include "iosched.h"
#include "iosched-evidence.h"
#include "jsonread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        const char *text = (const char *)data;
        struct ios_evidence_doc doc = {}, again = {};
        struct ios_evidence ev;
        struct ios_json j;
        char *msg = NULL, *out = NULL;
        size_t len = 0;
        FILE *f;

        if (ios_json_parse(text, size, &j) == 0)
                ios_json_done(&j);
        if (ios_evidence_from_compare(text, size, &ev, &msg) == 0) {
                if (ev.nv)
                        (void)ios_evidence_judge(&ev, ev.v[0].name, NULL);
                ios_evidence_done(&ev);
        }
        free(msg);
        if (ios_evidence_parse(text, size, &doc) < 0)
                return 0;
        f = open_memstream(&out, &len);
        if (!f)
                abort();
        fputs("{\"schema\": 1, \"kind\": \"iosched-evidence\", \"identity\": {}, \"records\": [", f);
        for (size_t i = 0; i < doc.n; i++) {
                fputs(i ? ", " : "", f);
                ios_evidence_json(f, &doc.r[i], " ");
        }
        fputs("]}", f);
        if (fclose(f) != 0)
                abort();
        if (ios_evidence_parse(out, len, &again) < 0 || again.n != doc.n)
                abort();
        for (size_t i = 0; i < doc.n; i++)
                if (again.r[i].nv != doc.r[i].nv || again.r[i].verdict != doc.r[i].verdict)
                        abort();
        ios_evidence_doc_done(&again);
        ios_evidence_doc_done(&doc);
        free(out);
        return 0;
}
