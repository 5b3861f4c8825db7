/* The line editor's state, apart from the screen: the text and cursor, insert and
 * overwrite, the history (Up/Down) and Tab completion cycling through candidates. The
 * shell's console code (line_input.c) turns keys into these calls and redraws. */
#ifndef SHELL_PURE_EDIT_H
#define SHELL_PURE_EDIT_H

#include "mem.h"

#define SH_HISTORY_MAX 64

/* A line has no fixed length: the text grows as keys come. When memory runs out a key is
 * lost and `lost` says so, so that the caller refuses the line instead of running what is
 * left of it. */
struct sh_edit {
	CHAR16 *text; /* len units and a terminator; never NULL after sh_edit_clear */
	size_t len, cap, cursor;
	bool overwrite; /* Insert toggles */
	bool lost;	/* a key or an edit did not fit in memory since the last clear */
};

/* Empties the line (keeping its memory) and forgets a lost key. */
void sh_edit_clear(struct sh_edit *e);
/* Releases the line's memory. */
void sh_edit_free(struct sh_edit *e);
/* Replaces the whole line (history recall); the cursor goes to its end. */
void sh_edit_set(struct sh_edit *e, const CHAR16 *text);
/* Types c at the cursor; false when memory ran out (the key is lost: e->lost). */
bool sh_edit_insert(struct sh_edit *e, CHAR16 c);
/* Backspace and Delete; false when there was nothing to remove. */
bool sh_edit_backspace(struct sh_edit *e);
bool sh_edit_delete(struct sh_edit *e);
/* Cursor movement; false when it could not move. */
bool sh_edit_left(struct sh_edit *e);
bool sh_edit_right(struct sh_edit *e);
void sh_edit_home(struct sh_edit *e);
void sh_edit_end(struct sh_edit *e);
/* Replaces text[start, end) with s and puts the cursor after it; false when the range is
 * wrong or memory ran out (the line is unchanged). */
bool sh_edit_replace(struct sh_edit *e, size_t start, size_t end, const CHAR16 *s);

/* The word around the cursor, for completion: [*start, *end), quotes included. */
void sh_edit_word(const struct sh_edit *e, size_t *start, size_t *end);
/* Whether the word starting at start is the command (the first word of a command). */
bool sh_edit_word_is_command(const struct sh_edit *e, size_t start);

struct sh_history {
	CHAR16 *entries[SH_HISTORY_MAX]; /* oldest first */
	size_t count;
	size_t browse; /* == count: not browsing */
};

/* Adds a line (blank lines and a repeat of the newest are skipped); browsing restarts. */
void sh_history_add(struct sh_history *h, const CHAR16 *line);
/* Up: the previous entry, or NULL at the oldest. Down: the next one, or NULL past the
 * newest (then the caller shows an empty line). */
const CHAR16 *sh_history_up(struct sh_history *h);
const CHAR16 *sh_history_down(struct sh_history *h);
void sh_history_free(struct sh_history *h);

/* Tab completion: candidates for the word [start, end) of the line; each Tab puts the next
 * one in place of the word. Any other key ends the cycle (sh_complete_reset). */
struct sh_complete {
	struct sh_strv candidates;
	size_t next;
	size_t start, end; /* the word's current place in the line */
	bool active;
};

/* Starts a cycle with candidates (taken over). */
void sh_complete_begin(struct sh_complete *c, struct sh_strv *candidates, size_t start, size_t end);
/* Puts the next candidate into the line (quoted when it holds blanks); false when there are
 * none or it does not fit. */
bool sh_complete_next(struct sh_complete *c, struct sh_edit *e);
void sh_complete_reset(struct sh_complete *c);

#endif
