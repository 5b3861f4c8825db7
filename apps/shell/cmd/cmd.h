/* Helpers shared by the file commands (cp, mv, rm; type and more). */
#ifndef SHELL_CMD_H
#define SHELL_CMD_H

#include "../internal.h"

/* Copies a file, or with recursive a directory and its contents, from src to dst (both full
 * names; dst must not exist as a directory of the same name unless src is one).
 * Messages start with cmd. A tree that fails cmd_tree_check is not copied at all. */
EFI_STATUS cmd_copy(struct shell *sh, const char *cmd, const CHAR16 *src, const CHAR16 *dst,
		    bool recursive);
/* Deletes a file or a directory with everything in it; reports failures. A tree that
 * fails cmd_tree_check is left whole. */
EFI_STATUS cmd_remove_tree(struct shell *sh, const char *cmd, const CHAR16 *name);
/* Walks the tree under a directory without changing it (tree_check.c): EFI_SUCCESS when it
 * ends within the bounds of pure/walk.h and every directory listed opens as one; else
 * reports where and why, followed by outcome ("nothing deleted"). A file passes. */
EFI_STATUS cmd_tree_check(struct shell *sh, const char *cmd, const CHAR16 *name,
			  const char *outcome);
/* The file's information, or NULL when it does not exist. */
EFI_FILE_INFO *cmd_stat(struct shell *sh, const CHAR16 *name);
/* dir + '\' + name, allocated. */
CHAR16 *cmd_join(const CHAR16 *dir, const CHAR16 *name);
/* Whether two names are the same file (same mapping and path, ignoring case). */
bool cmd_same_file(struct shell *sh, const CHAR16 *a, const CHAR16 *b);

/* type.c: writes the text of a file: UCS-2 when it starts with the byte-order mark (or
 * ucs2), else UTF-8/ASCII (or ascii: each byte one character). Messages start with cmd. */
EFI_STATUS cmd_print_file(struct shell *sh, const char *cmd, const CHAR16 *name, bool ascii,
			  bool ucs2);
/* type.c: writes the text sent into a command (cmd < file, a | cmd) line by line; on the
 * console, where nothing was sent, fails with refusal. */
EFI_STATUS cmd_print_input(struct shell *sh, const char *refusal);

#endif
