/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * names.c: the spellings of a disk's class and zoned model ("hdd",
 * "host-managed"), as policies, the tools' output and the evidence use them.
 * Read by classify.c and probe-queue.c, so it depends on neither.
 */
#include <string.h>
#include <strings.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"

static const char * const class_names[_IOS_CLASS_MAX] = {
        [IOS_CLASS_HDD] = "hdd",         [IOS_CLASS_SSD] = "ssd",
        [IOS_CLASS_NVME] = "nvme",       [IOS_CLASS_RAID] = "raid",
        [IOS_CLASS_VIRTUAL] = "virtual", [IOS_CLASS_MMC] = "mmc",
        [IOS_CLASS_USB] = "usb",         [IOS_CLASS_DM] = "dm",
        [IOS_CLASS_MD] = "md",           [IOS_CLASS_LOOP] = "loop",
        [IOS_CLASS_ZRAM] = "zram",       [IOS_CLASS_NBD] = "nbd",
        [IOS_CLASS_OTHER] = "other",     [IOS_CLASS_MULTIPATH] = "multipath",
        [IOS_CLASS_OPTICAL] = "optical", [IOS_CLASS_FLOPPY] = "floppy",
        [IOS_CLASS_RAM] = "ram",         [IOS_CLASS_ARRAY] = "array",
};

const char *ios_class_to_string(enum ios_class c)
{
        return c >= 0 && c < _IOS_CLASS_MAX ? class_names[c] : NULL;
}

enum ios_class ios_class_from_string(const char *s)
{
        for (int i = 0; s && i < _IOS_CLASS_MAX; i++)
                if (streq(s, class_names[i]))
                        return (enum ios_class)i;
        return _IOS_CLASS_INVALID;
}

const char *ios_class_suggest(const char *s)
{
        for (int i = 0; s && i < _IOS_CLASS_MAX; i++)
                if (!strcasecmp(s, class_names[i]))
                        return class_names[i];
        return s ? ios_suggest(s, class_names, _IOS_CLASS_MAX) : NULL;
}

bool ios_class_is_media_drive(enum ios_class c)
{
        return c == IOS_CLASS_OPTICAL || c == IOS_CLASS_FLOPPY;
}

static const char * const zoned_names[_IOS_ZONED_MAX] = {
        [IOS_ZONED_NONE] = "none",
        [IOS_ZONED_HOST_AWARE] = "host-aware",
        [IOS_ZONED_HOST_MANAGED] = "host-managed",
};

const char *ios_zoned_to_string(enum ios_zoned z)
{
        return z >= 0 && z < _IOS_ZONED_MAX ? zoned_names[z] : NULL;
}

enum ios_zoned ios_zoned_from_string(const char *s)
{
        for (int i = 0; s && i < _IOS_ZONED_MAX; i++)
                if (streq(s, zoned_names[i]))
                        return (enum ios_zoned)i;
        return _IOS_ZONED_INVALID;
}
