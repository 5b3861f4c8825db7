/* Pure logic of the setup screen's Secure Boot page (apps/setup/sb_keys.c): what a key
 * file is, and EFI_SIGNATURE_LIST chains walked, counted, built and edited, each bounded
 * by the size it was given (fuzzed: tests/fuzz/fuzz_sb_file.c). No UEFI calls. */
#ifndef SETUP_PURE_SB_FILE_H
#define SETUP_PURE_SB_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <efi/types.h>
#include <efi/image_authentication.h>

enum sb_file_kind {
	SB_FILE_UNKNOWN, /* none of the below: refused */
	SB_FILE_DER,	 /* one DER X.509 certificate (.cer, .der, .crt in DER) */
	SB_FILE_ESL,	 /* a chain of EFI_SIGNATURE_LISTs (.esl) */
	SB_FILE_AUTH,	 /* EFI_VARIABLE_AUTHENTICATION_2 then a chain or nothing (.auth) */
	SB_FILE_PEM,	 /* a PEM certificate: its first CERTIFICATE block is used */
};

/* What data (size bytes) is; the checks are structural (signatures are the firmware's). */
enum sb_file_kind sb_file_kind(const UINT8 *data, size_t size);

/* Whether data is one DER SEQUENCE of exactly size bytes holding a SEQUENCE first (the
 * shape of an X.509 certificate). */
bool sb_der_is_certificate(const UINT8 *data, size_t size);

/* Whether data is a well-formed chain of signature lists (size 0 is an empty chain):
 * each list's sizes add up inside the data, SignatureSize holds at least the owner, and
 * each list holds at least one entry. */
bool sb_siglist_valid(const UINT8 *data, size_t size);

/* One entry of a chain. */
struct sb_entry {
	EFI_GUID type;	/* SignatureType of its list */
	EFI_GUID owner; /* SignatureOwner */
	const UINT8 *data;
	size_t size; /* bytes of SignatureData */
};

/* Entries in a valid chain (0 when it is not valid). */
UINT32 sb_siglist_count(const UINT8 *data, size_t size);

/* Entry index of a valid chain; false when there is no such entry. */
bool sb_siglist_entry(const UINT8 *data, size_t size, UINT32 index, struct sb_entry *entry);

/* Removes entry index from a valid chain in place (a list left empty goes); returns the
 * new size, or size unchanged (nothing done) when the chain is not valid or has no such
 * entry. */
size_t sb_siglist_remove(UINT8 *data, size_t size, UINT32 index);

/* Writes into out (out_size bytes) a chain of one X509 list holding cert, owned by owner;
 * returns its size, or 0 when it does not fit. */
size_t sb_esl_from_der(const UINT8 *cert, size_t cert_size, const EFI_GUID *owner, UINT8 *out,
		       size_t out_size);

/* Decodes the first "CERTIFICATE" block of a PEM file into out (out_size bytes); returns
 * the DER's size, 0 when there is none, it does not fit, or it is not a certificate. */
size_t sb_pem_to_der(const UINT8 *data, size_t size, UINT8 *out, size_t out_size);

/* Where the variable's data starts in an .auth file (after the descriptor); 0 when data is
 * not one. */
size_t sb_auth_payload(const UINT8 *data, size_t size);

#endif
