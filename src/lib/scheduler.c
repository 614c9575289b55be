/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * scheduler.c: queue/scheduler parsing and the legacy <-> blk-mq name map.
 * Legacy single-queue kernels (<= 4.20) offer noop/deadline/cfq; blk-mq
 * queues offer none/mq-deadline/kyber/bfq.  A queue offers one family only,
 * so a policy written for either family is mapped to the queue's own.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <string.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "strv.h"

int ios_sched_parse(const char *text, char **ret_current, char ***ret_avail)
{
        _cleanup_free_ char *copy = NULL;
        char **avail = NULL, *current = NULL;
        int r;

        copy = strdup(text ? text : "");
        if (!copy)
                return -ENOMEM;
        for (char *tok = strtok(copy, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
                size_t l = strlen(tok);

                if (tok[0] == '[' && l > 2 && tok[l - 1] == ']') {
                        tok[l - 1] = '\0';
                        tok++;
                        if (!current) {
                                current = strdup(tok);
                                if (!current)
                                        goto oom;
                        }
                }
                if (strlen(tok) > 16 || strpbrk(tok, "[]"))
                        goto bad;               /* ELEVATOR_NAME_MAX */
                r = ios_strv_push(&avail, strdup(tok));
                if (r < 0)
                        goto oom;
        }
        if (!avail) {
                avail = calloc(1, sizeof(char *));
                if (!avail)
                        goto oom;
        }
        if (ret_current)
                *ret_current = current;
        else
                free(current);
        if (ret_avail)
                *ret_avail = avail;
        else
                ios_strv_free(avail);
        return 0;
bad:
        free(current);
        ios_strv_free(avail);
        return -EBADMSG;
oom:
        free(current);
        ios_strv_free(avail);
        return -ENOMEM;
}

static bool is_legacy_queue(char * const *avail)
{
        return ios_strv_contains(avail, "noop") || ios_strv_contains(avail, "cfq") ||
               (ios_strv_contains(avail, "deadline") && !ios_strv_contains(avail, "none"));
}

/*
 * Two passes: first every preference under its own name or its direct twin
 * (noop/none, deadline/mq-deadline, cfq/bfq); only if none fits, the closest
 * stand-ins (kyber -> cfq on a legacy queue).  So "kyber none" on a legacy
 * kernel means noop, as the admin who wrote none as the fallback expects.
 */
int ios_sched_choose(char * const *prefs, char * const *avail, char * const *loadable, const char **ret)
{
        bool legacy = is_legacy_queue(avail);

        assert(ret);
        for (int pass = 0; pass < 2; pass++)
                for (size_t i = 0; prefs && prefs[i]; i++) {
                        const char *name = prefs[i], *alt = ios_sched_alias(name, legacy);
                        bool last = ios_sched_flags(name) & IOS_SCHED_TWIN_LAST;

                        if (pass == 1) {
                                if (alt && ios_strv_contains(avail, alt) && last) {
                                        *ret = alt;
                                        return (int)i;
                                }
                                continue;
                        }
                        if (last)
                                alt = NULL;     /* no twin; a stand-in only in pass 2 */
                        if (ios_strv_contains(avail, name)) {
                                *ret = name;
                                return (int)i;
                        }
                        if (alt && ios_strv_contains(avail, alt)) {
                                *ret = alt;
                                return (int)i;
                        }
                        if (!legacy && loadable) {
                                const char *mq = ios_sched_alias(name, false);

                                if (!mq)
                                        mq = name;
                                if (ios_strv_contains(loadable, mq)) {
                                        *ret = mq;
                                        return (int)i;
                                }
                        }
                }
        return -ENOENT;
}
