/* The HII database (core/hii): EFI_HII_DATABASE_PROTOCOL and EFI_HII_STRING_PROTOCOL. */
#ifndef EMBER_CORE_HII_H
#define EMBER_CORE_HII_H

#include <efi/status.h>

/* Publishes both protocols on a handle of their own (an init step; once). */
EFI_STATUS hii_publish(void);

#endif
