// Package repository holds what the stores share: the checks and durable encoding of an
// append batch. Each engine is a package of its own beside it (sqlite, postgres, memstore), and
// each passes the conformance suite in storetest.
package repository
