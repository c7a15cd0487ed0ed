package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/allfives/allfives/domain"
)

// The audit compares what the rules give with what the log holds field by field, so that a
// failure names the field (players[1].kind, rated, points), and a field the rules do not
// regenerate fails every match that carries it instead of passing unseen (docs/api-records.md,
// "Replay, audit and export").

// fieldDiff names the first field where the derived event d and the recorded rec differ, with
// both values as the audit's viewer may see them: "" when their payloads agree.
func (r *referee) fieldDiff(d, rec domain.Event) string {
	raw, _, _ := firstDiff("", encoded(d.Data), encoded(rec.Data))
	if raw == "" {
		return ""
	}
	if r.hidesDerived(d, rec) {
		return "; the first field that differs is " + raw
	}
	rd, rr := r.v.Redact(d, r.finished), r.v.Redact(rec, r.finished)
	path, want, got := firstDiff("", encoded(rd.Data), encoded(rr.Data))
	if path != raw {
		return "; the first field that differs is " + raw + " (its value is hidden while the match is live)"
	}
	return fmt.Sprintf("; the first field that differs is %s: %s in the log, %s by the rules", path, valueText(got), valueText(want))
}

// hidesDerived says whether the derived event is a bot's choice for a seat whose tiles the
// viewer may not see, and differs from the recorded play: any of its fields would tell
// something of the seat's hand.
func (r *referee) hidesDerived(d, rec domain.Event) bool {
	dp, ok1 := d.Data.(domain.TilePlayed)
	rp, ok2 := rec.Data.(domain.TilePlayed)
	return ok1 && ok2 && dp.Tile != rp.Tile && !r.v.Sees(dp.Seat, r.finished)
}

// encoded is a payload's durable JSON, or nil when it cannot be encoded.
func encoded(d domain.EventData) json.RawMessage {
	b, err := domain.EncodeData(d)
	if err != nil {
		return nil
	}
	return b
}

// firstDiff walks two JSON values in step and returns the path of the first place they
// differ (a field absent on one side counts), with the values there (nil: absent); "" when
// they are equal. Objects are walked in a's field order, then b's fields a lacks.
func firstDiff(path string, a, b json.RawMessage) (string, json.RawMessage, json.RawMessage) {
	a, b = bytes.TrimSpace(a), bytes.TrimSpace(b)
	if bytes.Equal(a, b) {
		return "", nil, nil
	}
	if ka, va, ok := objectFields(a); ok {
		if kb, vb, ok := objectFields(b); ok {
			for _, k := range append(ka, kb...) {
				x, inA := va[k]
				y, inB := vb[k]
				if !inA || !inB {
					return join(path, k), x, y
				}
				if p, dx, dy := firstDiff(join(path, k), x, y); p != "" {
					return p, dx, dy
				}
			}
		}
	}
	var xa, xb []json.RawMessage
	if json.Unmarshal(a, &xa) == nil && json.Unmarshal(b, &xb) == nil && xa != nil && xb != nil {
		for i := range min(len(xa), len(xb)) {
			if p, dx, dy := firstDiff(path+"["+strconv.Itoa(i)+"]", xa[i], xb[i]); p != "" {
				return p, dx, dy
			}
		}
	}
	if path == "" {
		path = "(the whole payload)"
	}
	return path, a, b
}

// objectFields reads a JSON object's field names in order and their values.
func objectFields(b json.RawMessage) ([]string, map[string]json.RawMessage, bool) {
	var vals map[string]json.RawMessage
	if len(b) == 0 || b[0] != '{' || json.Unmarshal(b, &vals) != nil {
		return nil, nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var keys []string
	if _, err := dec.Token(); err != nil { // the opening brace
		return nil, nil, false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, false
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, nil, false
		}
	}
	return keys, vals, true
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// valueText is a JSON value as a detail shows it; an absent field says so.
func valueText(v json.RawMessage) string {
	if v == nil {
		return "absent"
	}
	return domain.Truncate(string(v), 200)
}
