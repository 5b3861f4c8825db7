/* The operations of bcfg, shared between its files. */
#ifndef SHELL_SYSTEM_BCFG_CMD_H
#define SHELL_SYSTEM_BCFG_CMD_H

#include "bcfg.h"

/* A position argument (hex); prints why not and returns false when it is no number. */
bool bcfg_position(struct shell *sh, const CHAR16 *text, UINTN *pos);
/* The option number at a position of the order; false (with a message) past its end. */
bool bcfg_at(struct shell *sh, const struct bcfg_kind *k, const UINT16 *order, UINTN count,
	     UINTN pos, UINT16 *number);

/* bcfg KIND add|addp|addh POS what "description" */
EFI_STATUS bcfg_add(struct shell *sh, const struct bcfg_kind *k, const struct sh_args *a);
/* bcfg KIND mod|modf|modp|modh POS what */
EFI_STATUS bcfg_modify(struct shell *sh, const struct bcfg_kind *k, const struct sh_args *a);
/* bcfg KIND -opt POS [file | text] */
EFI_STATUS bcfg_opt(struct shell *sh, const struct bcfg_kind *k, const struct sh_args *a);

#endif
