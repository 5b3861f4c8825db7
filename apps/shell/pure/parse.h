/* The shell's command-line parser (UEFI Shell 2.2, chapter 3): a line becomes a pipeline
 * of commands, each a list of words with its redirections.
 *
 * - Words are separated by spaces and tabs. "..." quotes (the quotes are removed, "" is an
 *   empty word); ^ takes the next character literally, in quotes too ("^"", "^|", "^^").
 * - # outside quotes starts a comment that runs to the end of the line.
 * - | ends one command and starts the next: the output of the first feeds the second.
 * - Redirections: >, >> (append), 1>, 1>>, 2>, 2>> (standard error), each optionally
 *   followed by 'a' (ASCII instead of UCS-2 text) or 'v' (into an environment variable)
 *   when a space follows the letter ("> a" and ">afile" name a file "a"/"afile"); < reads
 *   standard input from a file. The target is the next word, or what follows the
 *   operator directly (">out.txt").
 *
 * Variables are expanded before parsing (expand.h); this parser sees their values. */
#ifndef SHELL_PURE_PARSE_H
#define SHELL_PURE_PARSE_H

#include "mem.h"

struct sh_redir {
	CHAR16 *target; /* file or variable name; NULL: not redirected */
	bool append;	/* ">>" */
	bool ascii;	/* the 'a' form */
	bool to_var;	/* the 'v' form */
};

struct sh_cmd {
	CHAR16 **argv; /* argc words, then NULL; never NULL itself */
	size_t argc;
	struct sh_redir out, err, in;
};

struct sh_pipeline {
	struct sh_cmd *cmds;
	size_t count; /* 0 for a blank line or a comment */
};

struct sh_parse_error {
	const char *what; /* a sentence fragment: "a quote is not closed" */
	size_t column;	  /* where, counting from 0 */
};

/* Parses one line. EFI_INVALID_PARAMETER with *err filled for malformed lines,
 * EFI_OUT_OF_RESOURCES; on success free the result with sh_pipeline_free. */
EFI_STATUS sh_parse_line(const CHAR16 *line, struct sh_pipeline *out, struct sh_parse_error *err);
void sh_pipeline_free(struct sh_pipeline *p);

/* Splits text into words with the same quoting, escapes and comments, treating | < > as
 * ordinary characters (for alias values and the sets of for loops). */
EFI_STATUS sh_split_words(const CHAR16 *text, struct sh_strv *out, struct sh_parse_error *err);

/* A command line from words: blanks between them, a word that is empty or holds blanks
 * or quotes is quoted (with ^ before inner quotes and carets). NULL when out of memory. */
CHAR16 *sh_join_words(CHAR16 *const *argv, size_t argc);

#endif
