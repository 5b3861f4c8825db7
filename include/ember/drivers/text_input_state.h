/* EMBER_TEXT_INPUT_STATE_PROTOCOL: Ember's own protocol, next to SimpleTextIn on a console
 * input's handle, saying what the specification's protocols cannot: whether a person types
 * on it, and whether its input has ended. A keyboard that has nothing to say answers
 * ReadKeyStroke with EFI_NOT_READY for ever, so without this a program cannot tell "no key
 * yet" from "no key will ever come" (ember-run with stdin a file or a finished pipe).
 *
 * ember-run installs it on its console input (the system table's ConsoleInHandle). A
 * console without it is taken to be a person at a keyboard whose input never ends. The
 * device updates the fields itself; programs only read them. */
#ifndef EMBER_TEXT_INPUT_STATE_H
#define EMBER_TEXT_INPUT_STATE_H

#include <efi/types.h>

#define EMBER_TEXT_INPUT_STATE_PROTOCOL_GUID                                                       \
	EFI_GUID_INIT(0x4d3af6b1, 0xa618, 0x4d76, 0x94, 0x6a, 0x2e, 0xdb, 0x41, 0x87, 0xf4, 0xee)

#define EMBER_TEXT_INPUT_STATE_REVISION 0x00010000

typedef struct {
	UINT32 Revision;
	/* TRUE when a person types (a terminal); FALSE when the keys were written ahead of
	 * time (a file, a pipe): nobody answers a prompt, so programs should not pause. */
	BOOLEAN Interactive;
	/* TRUE once the input has reached its end: when ReadKeyStroke then answers
	 * EFI_NOT_READY, no key will ever come. */
	BOOLEAN Ended;
} EMBER_TEXT_INPUT_STATE_PROTOCOL;

#endif
