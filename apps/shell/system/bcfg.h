/* bcfg's store: load options (Boot####, Driver####) and their order variables. */
#ifndef SHELL_SYSTEM_BCFG_H
#define SHELL_SYSTEM_BCFG_H

#include "sys.h"
#include <ember/lib/load_option.h>

/* Which list bcfg works on. */
struct bcfg_kind {
	const char *word;     /* "boot" */
	const CHAR16 *prefix; /* u"Boot" */
	const CHAR16 *order;  /* u"BootOrder" */
};

/* One option read from its variable. */
struct bcfg_option {
	UINT16 number;
	void *data; /* the variable's bytes */
	UINTN size;
	struct load_option lo; /* pointing into data */
	CHAR16 *description;   /* an aligned copy */
};

/* "Boot0003" */
void bcfg_var_name(CHAR16 out[16], const struct bcfg_kind *k, UINT16 number);

/* The order (allocated; NULL and 0 when the variable is absent). */
EFI_STATUS bcfg_order_read(const struct bcfg_kind *k, UINT16 **order, UINTN *count);
EFI_STATUS bcfg_order_write(const struct bcfg_kind *k, const UINT16 *order, UINTN count);

/* EFI_NOT_FOUND when absent, EFI_VOLUME_CORRUPTED when not a valid load option. */
EFI_STATUS bcfg_option_read(const struct bcfg_kind *k, UINT16 number, struct bcfg_option *o);
void bcfg_option_free(struct bcfg_option *o);
/* Writes (creates or replaces) the option's variable. */
EFI_STATUS bcfg_option_write(const struct bcfg_kind *k, UINT16 number,
			     const struct load_option *lo);
EFI_STATUS bcfg_option_delete(const struct bcfg_kind *k, UINT16 number);
/* The lowest number with no variable. */
EFI_STATUS bcfg_free_number(const struct bcfg_kind *k, UINT16 *number);

#endif
