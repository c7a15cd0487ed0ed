// Package notation writes a match's record as readable text (docs/notation.md).
package notation
