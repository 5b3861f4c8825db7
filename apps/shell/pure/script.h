/* Script files (.nsh, UEFI Shell 2.2 chapter 4) as lines with their block structure,
 * and the engine that runs them.
 *
 * Loading classifies every line (blank or comment, :label, if, else, endif, for,
 * endfor, command) and pairs the blocks once, so that a script whose blocks do not nest
 * is refused with the line at fault before anything runs. Running walks the lines:
 * if/else/endif and for/endfor are done here; every other line is expanded and handed to
 * the host (the shell), which also provides goto, shift and exit through the functions at
 * the end of this header. */
#ifndef SHELL_PURE_SCRIPT_H
#define SHELL_PURE_SCRIPT_H

#include "expand.h"

enum sh_line_kind {
	SH_LINE_BLANK, /* empty, or a # comment */
	SH_LINE_LABEL,
	SH_LINE_COMMAND,
	SH_LINE_IF,
	SH_LINE_ELSE,
	SH_LINE_ENDIF,
	SH_LINE_FOR,
	SH_LINE_ENDFOR,
};

struct sh_script_line {
	CHAR16 *text;  /* without leading blanks and the '@' */
	UINT32 number; /* 1-based, for messages */
	UINT8 kind;
	bool quiet;   /* '@' prefix: never echoed */
	UINT32 match; /* if: its else or endif; else: its endif; for: its endfor; endfor: its for */
};

struct sh_script {
	CHAR16 *name; /* as it was invoked, for messages and %0 */
	struct sh_script_line *lines;
	size_t count;
};

struct sh_script_error {
	const char *what;
	UINT32 line; /* 1-based */
};

/* Splits text (len units) into lines (CR LF, LF or CR) and pairs the blocks.
 * EFI_INVALID_PARAMETER with *err for an unpaired block, EFI_OUT_OF_RESOURCES. */
EFI_STATUS sh_script_parse(const CHAR16 *name, const CHAR16 *text, size_t len,
			   struct sh_script **out, struct sh_script_error *err);
void sh_script_free(struct sh_script *s);

/* The index of the line ":label" (case-insensitive): searched from line `from` to the end,
 * then from the top. */
bool sh_script_find_label(const struct sh_script *s, const CHAR16 *label, size_t from,
			  size_t *index);

/* ---- Running ---- */

#define SH_LOOP_MAX 16

/* One running for loop. */
struct sh_loop {
	size_t for_line; /* index of its for line */
	CHAR16 letter;
	struct sh_strv values; /* "in" form */
	size_t next;
	bool counting; /* "run" form */
	INT64 value, end, step;
	CHAR16 text[24]; /* the counter as text */
	const CHAR16 *current;
};

struct sh_script_run {
	const struct sh_script *script;
	size_t pc;	     /* the line being run */
	bool jumped;	     /* a goto moved pc */
	bool finished;	     /* exit /b, or stopped by an error */
	EFI_STATUS status;   /* what the script returns */
	struct sh_strv args; /* %0 and the arguments; shift drops %1 */
	struct sh_loop loops[SH_LOOP_MAX];
	size_t depth;
};

/* What the engine needs from the shell. */
struct sh_script_host {
	void *ctx;
	const CHAR16 *(*get_env)(void *ctx, const CHAR16 *name, size_t len);
	bool (*exists)(void *ctx, const CHAR16 *path);
	/* Runs one expanded command line; its status becomes %lasterror%. */
	EFI_STATUS (*run)(void *ctx, struct sh_script_run *r, const CHAR16 *line);
	/* Appends the names matching a wildcard pattern (for loops). */
	EFI_STATUS (*glob)(void *ctx, const CHAR16 *pattern, struct sh_strv *out);
	/* A line about to run (the host prints it when echo is on). */
	void (*echo)(void *ctx, const CHAR16 *line);
	/* A mistake in the script at line (1-based): the script stops. */
	void (*error)(void *ctx, const struct sh_script_run *r, UINT32 line, const char *what);
	/* Whether the user asked to stop (Ctrl-C); NULL: never. */
	bool (*interrupted)(void *ctx);
};

/* Prepares a run of s with %0 = argv[0] ... (copied). EFI_OUT_OF_RESOURCES. */
EFI_STATUS sh_script_begin(struct sh_script_run *r, const struct sh_script *s, CHAR16 *const *argv,
			   size_t argc);
/* Runs to the end, exit /b, or an error in the script; returns r->status. */
EFI_STATUS sh_script_run(struct sh_script_run *r, const struct sh_script_host *host);
/* Releases the run's arguments and loops (not the script). */
void sh_script_end(struct sh_script_run *r);

/* The variables for expanding a line of this run (the loop variables are valid until the
 * loops change). */
void sh_script_vars(struct sh_script_run *r, const struct sh_script_host *host,
		    struct sh_for_var *storage, struct sh_vars *vars);

/* goto: continues at the label's line (leaving loops it jumps out of). EFI_NOT_FOUND. */
EFI_STATUS sh_script_goto(struct sh_script_run *r, const CHAR16 *label);
/* shift: drops %1, so that %2 becomes %1 ... */
void sh_script_shift(struct sh_script_run *r);
/* exit /b: the script ends with status. */
void sh_script_exit(struct sh_script_run *r, EFI_STATUS status);

#endif
