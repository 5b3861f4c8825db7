/* EFI_SIGNATURE_LIST chains (UEFI 2.10 32.4.1), the contents of PK, KEK, db, dbx and dbt:
 * checked whole, then walked entry by entry. Bounded by the size given; malformed chains
 * are refused, never read in part. */
#ifndef EMBER_CRYPTO_SIGLIST_H
#define EMBER_CRYPTO_SIGLIST_H

#include <efi/status.h>
#include <efi/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum siglist_type {
	SIGLIST_X509,
	SIGLIST_SHA1,
	SIGLIST_SHA256,
	SIGLIST_SHA384,
	SIGLIST_SHA512,
	SIGLIST_RSA2048,
	SIGLIST_X509_SHA256,
	SIGLIST_X509_SHA384,
	SIGLIST_X509_SHA512,
	SIGLIST_UNKNOWN, /* a type this list does not name (its entries are opaque) */
};

/* One EFI_SIGNATURE_DATA: its owner and its data (inside the caller's buffer). For the
 * X509_SHA* types, data is the digest followed by the EFI_TIME of revocation. */
struct siglist_entry {
	enum siglist_type type;
	EFI_GUID type_guid;
	EFI_GUID owner;
	const uint8_t *data;
	size_t size;
};

/* A walk over a chain that siglist_check accepted. */
struct siglist_iter {
	const uint8_t *next_list; /* the next EFI_SIGNATURE_LIST */
	size_t lists_left;	  /* bytes from next_list to the end */
	const uint8_t *next_sig;  /* the next EFI_SIGNATURE_DATA of the current list */
	size_t sigs_left;	  /* bytes of signatures left in the current list */
	size_t sig_size;
	enum siglist_type type;
	EFI_GUID type_guid;
};

/* Checks a chain of signature lists: each list's sizes consistent and inside size, a
 * known type's entries of its fixed size (X.509: any size, header empty), at least one
 * entry per list. allow_unknown: whether types this code does not name are accepted.
 * EFI_SUCCESS or EFI_INVALID_PARAMETER (an empty chain, size 0, is valid). */
EFI_STATUS siglist_check(const void *data, size_t size, bool allow_unknown);
/* Starts a walk over a chain siglist_check accepted. */
void siglist_begin(struct siglist_iter *it, const void *data, size_t size);
/* The next entry: EFI_SUCCESS, or EFI_NOT_FOUND at the end (EFI_INVALID_PARAMETER if the
 * chain was not checked and is malformed). */
EFI_STATUS siglist_next(struct siglist_iter *it, struct siglist_entry *entry);
/* Whether a checked chain holds an entry of type whose data is bytes (a hash, a DER
 * certificate or, for X509_SHA*, the certificate's digest: the time is not compared). */
bool siglist_contains(const void *data, size_t size, enum siglist_type type, const void *bytes,
		      size_t length);
/* The type's GUID (NULL for SIGLIST_UNKNOWN). */
const EFI_GUID *siglist_type_guid(enum siglist_type type);

#endif
