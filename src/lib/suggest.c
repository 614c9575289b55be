/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * suggest.c: "did you mean ...": the nearest of a set of known words by
 * edit distance (insert, delete, substitute, swap two neighbours: the
 * optimal string alignment distance), compared without case, and only
 * when it is near enough to be a slip of the hand rather than another
 * word: 1 for words of up to 4 letters, 2 up to 10, then 3.  Out-of-tree
 * schedulers ("vr", "sio") are far from every known one and stay words.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <string.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"

#define WORD_MAX 64

unsigned ios_edit_distance(const char *a, const char *b)
{
        size_t na = strlen(a), nb = strlen(b);
        unsigned d[WORD_MAX + 1][WORD_MAX + 1];

        if (na > WORD_MAX || nb > WORD_MAX)
                return IOS_DISTANCE_MAX;
        for (size_t i = 0; i <= na; i++)
                d[i][0] = (unsigned)i;
        for (size_t j = 0; j <= nb; j++)
                d[0][j] = (unsigned)j;
        for (size_t i = 1; i <= na; i++)
                for (size_t j = 1; j <= nb; j++) {
                        unsigned cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
                        unsigned v = d[i - 1][j] + 1;

                        if (d[i][j - 1] + 1 < v)
                                v = d[i][j - 1] + 1;
                        if (d[i - 1][j - 1] + cost < v)
                                v = d[i - 1][j - 1] + cost;
                        if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
                            tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) &&
                            d[i - 2][j - 2] + 1 < v)
                                v = d[i - 2][j - 2] + 1;
                        d[i][j] = v;
                }
        return d[na][nb];
}

bool ios_near_miss(const char *word, const char *known)
{
        size_t n = strlen(known) > strlen(word) ? strlen(known) : strlen(word);
        unsigned max = n <= 4 ? 1 : n <= 10 ? 2 : 3;

        return ios_edit_distance(word, known) <= max;
}

const char *ios_suggest(const char *word, const char * const *known, size_t n)
{
        const char *best = NULL;
        unsigned bd = IOS_DISTANCE_MAX;

        for (size_t i = 0; i < n; i++) {
                unsigned d = ios_edit_distance(word, known[i]);

                /* a tie goes to the word that starts as this one does ("sdd": ssd, not hdd) */
                bool first = best && tolower((unsigned char)word[0]) == tolower((unsigned char)known[i][0]) &&
                             tolower((unsigned char)word[0]) != tolower((unsigned char)best[0]);

                if ((d < bd || (d == bd && first)) && ios_near_miss(word, known[i])) {
                        bd = d;
                        best = known[i];
                }
        }
        return best;
}
