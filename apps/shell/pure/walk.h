/* What keeps the shell's walks over directory trees (ls -r, rm, cp -r, mv between volumes)
 * finite on a damaged or hostile volume, and the checks of the entries they read.
 *
 * A FAT directory entry can point back at its parent or at the root, so that a tree walked
 * by names never ends (fs0:\A\SUB\SUB\SUB ...), and rm would delete, as the contents of
 * SUB, files that were never named. Through EFI_FILE_PROTOCOL a directory has no identity
 * (no cluster, no inode), and a listing does not tell one either: a chain of directories
 * made at once (mkdir a\a\a) lists alike at every level, down to the times. So the rules
 * bound what a walk does instead of guessing:
 *
 * - a walk goes at most SH_WALK_DEPTH_MAX levels below the directory it starts from; a
 *   loop always gets there, within SH_WALK_DEPTH_MAX listings of the directories in it;
 * - a walk enters at most SH_WALK_DIRS_MAX directories in all (a volume whose
 *   directories are linked into each other many times over, without a loop, would
 *   otherwise be walked an exponential number of times);
 * - an entry is followed only when its name is a name: not empty, not "." or "..", and
 *   without '\' or '/'.
 *
 * The first problem ends the walk: callers refuse to change anything then (rm and cp
 * walk the whole tree before they delete or copy). To say where a loop goes, each
 * directory on the path keeps a fingerprint of its listing (every entry's name,
 * attributes, sizes and times, in the order read): past the depth bound, a listing equal
 * to one above it is reported as a loop back to there. */
#ifndef SHELL_PURE_WALK_H
#define SHELL_PURE_WALK_H

#include <efi/protocol/simple_file_system.h>
#include <efi/types.h>
#include <stdbool.h>
#include <stddef.h>

#define SH_WALK_DEPTH_MAX 64
#define SH_WALK_DIRS_MAX 65536

/* The fingerprint of an empty listing; sh_walk_print_entry folds each entry in. */
#define SH_WALK_PRINT_INIT 0xcbf29ce484222325ULL

enum sh_walk_verdict {
	SH_WALK_OK,
	SH_WALK_LOOP,	  /* too deep, and the listing repeats one above it: a loop */
	SH_WALK_TOO_DEEP, /* more than SH_WALK_DEPTH_MAX levels below the start */
	SH_WALK_TOO_MANY, /* more than SH_WALK_DIRS_MAX directories */
};

struct sh_walk {
	UINT64 prints[SH_WALK_DEPTH_MAX + 1]; /* of the directories on the current path */
	size_t depth;			      /* how many are on the path */
	size_t visited;			      /* directories entered in all */
	size_t seen_first;		      /* SH_WALK_LOOP: the level of the first equal one */
};

void sh_walk_init(struct sh_walk *w);
/* Folds one entry into a listing's fingerprint. */
UINT64 sh_walk_print_entry(UINT64 print, const EFI_FILE_INFO *info);
/* Enters a directory whose listing has that fingerprint: SH_WALK_OK, and it is on the path
 * until sh_walk_leave; or why it must not be walked (it is not entered). */
enum sh_walk_verdict sh_walk_enter(struct sh_walk *w, UINT64 print);
void sh_walk_leave(struct sh_walk *w);
/* The verdict in words, for messages ("directories nested more than 64 levels deep ..."):
 * the caller adds, for SH_WALK_LOOP, which directory above lists alike. */
const char *sh_walk_verdict_text(enum sh_walk_verdict v);

/* How much of path ("fs0:\A\B\C") names the directory levels above it ("fs0:\A" for 2);
 * never less than the volume's root ("fs0:\"). */
size_t sh_walk_path_up(const CHAR16 *path, size_t levels);

/* Whether a walk may follow an entry of this name (see above). */
bool sh_walk_name_ok(const CHAR16 *name);
/* Whether size bytes read from a directory (or from GetInfo) are one EFI_FILE_INFO whose
 * Size covers its fixed part and a name ending within Size, and no more than size. */
bool sh_file_info_valid(const void *buf, size_t size);

#endif
