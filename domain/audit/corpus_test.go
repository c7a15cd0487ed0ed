package audit_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/audit"
)

// failedChecks is the checks of an audit of log that do not hold, as "name: detail".
func failedChecks(log []domain.Event) []string {
	var out []string
	for _, c := range audit.EventsWith("m", audit.LogRead{Events: log}, domain.Spectator(), firstLegal) {
		if !c.OK {
			out = append(out, c.Name+": "+c.Detail)
		}
	}
	return out
}

// TestEveryKindOfLogAudits: the honest log of every kind of match the rules make (rated,
// reserved, joined and left, clocked and autoplayed, resigned, expired, cancelled for each
// reason, offers taken and not) passes every check of the audit.
func TestEveryKindOfLogAudits(t *testing.T) {
	for name, log := range corpus(t) {
		if failed := failedChecks(log); len(failed) > 0 {
			t.Errorf("%s: %v", name, failed)
		}
	}
}

// TestTheCorpusSetsEveryField: every event type appears in the corpus, and every field of its
// payload holds a value other than its zero in some event, so that the audits above check
// that the rules regenerate each. A new event type or field must be added to the corpus.
func TestTheCorpusSetsEveryField(t *testing.T) {
	set := map[domain.EventType]map[string]bool{}
	for _, log := range corpus(t) {
		for _, e := range log {
			if set[e.Type] == nil {
				set[e.Type] = map[string]bool{}
			}
			v := reflect.ValueOf(e.Data)
			for i := range v.NumField() {
				if !v.Field(i).IsZero() {
					set[e.Type][v.Type().Field(i).Name] = true
				}
			}
		}
	}
	for _, typ := range domain.EventTypes {
		fields, ok := set[typ]
		if !ok {
			t.Errorf("no log of the corpus has a %s", typ)
			continue
		}
		d, err := domain.DecodeEventData(typ, []byte(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		rt := reflect.TypeOf(d)
		for i := range rt.NumField() {
			if !fields[rt.Field(i).Name] {
				t.Errorf("no %s of the corpus sets %s", typ, rt.Field(i).Name)
			}
		}
	}
}

// givenFields are the fields an event takes from the command it records, which the rules
// then judge rather than derive: who moved and what, who joined under what name, who left,
// declined, withdrew or resigned. A change to one is a different command; the audit finds it
// only when that command breaks the rules, or the events after it stop following. Every
// other field is derived, and a change to it must fail the audit.
var givenFields = map[domain.EventType][]string{
	domain.TypeTilePlayed:     {"Tile", "End"},
	domain.TypeSeatJoined:     {"Seat", "Name", "Player"},
	domain.TypeSeatLeft:       {"Seat"},
	domain.TypeMatchCancelled: {"Seat"},
	domain.TypeSeatResigned:   {"Seat"},
}

// TestAChangedFieldFailsTheAudit: in every honest log, changing any derived field of any
// event after match.created (whose fields are the match's settings, rebuilt by SpecOf:
// TestSpecOfCarriesEveryField) fails the audit. The changes are made by reflection, field by
// field, so a new field is changed too: one the rules do not regenerate fails this test.
func TestAChangedFieldFailsTheAudit(t *testing.T) {
	for name, log := range corpus(t) {
		for i, e := range log[1:] {
			v := reflect.ValueOf(e.Data)
			for f := range v.NumField() {
				field := v.Type().Field(f).Name
				if slices.Contains(givenFields[e.Type], field) {
					continue
				}
				changed := slices.Clone(log)
				changed[i+1].Data = withField(e.Data, f)
				if len(failedChecks(changed)) == 0 {
					t.Errorf("%s: seq %d %s with %s changed (%+v) passes the audit", name, e.Seq, e.Type, field, changed[i+1].Data)
				}
			}
		}
	}
}

// TestTheAuditNamesTheField: a derived field the log holds otherwise than the rules give is
// named in the detail, with both values.
func TestTheAuditNamesTheField(t *testing.T) {
	log := corpus(t)["played out: two"]
	i := slices.IndexFunc(log, func(e domain.Event) bool { return e.Type == domain.TypeTilePlayed })
	p := log[i].Data.(domain.TilePlayed)
	p.Points += 5
	log = slices.Clone(log)
	log[i].Data = p
	failed := failedChecks(log)
	want := fmt.Sprintf("the first field that differs is points: %d in the log, %d by the rules", p.Points, p.Points-5)
	if len(failed) == 0 || !strings.Contains(failed[0], want) {
		t.Fatalf("the audit says %q, want it to name the field: %q", failed, want)
	}
}

// withField is d with its field f changed to another value of its type.
func withField(d domain.EventData, f int) domain.EventData {
	v := reflect.New(reflect.TypeOf(d)).Elem()
	v.Set(reflect.ValueOf(d))
	change(v.Field(f))
	return v.Interface().(domain.EventData)
}

var tileType = reflect.TypeFor[domain.Tile]()

// change sets v, which is settable, to another value: a number one more, a bool flipped, a
// string longer, a tile the next one, a nil pointer or slice to a zero value, a pointer's or
// slice's first element changed (a copy, so the corpus is left alone), a struct's first field.
func change(v reflect.Value) {
	switch {
	case v.Type() == tileType:
		t := v.Interface().(domain.Tile)
		v.Set(reflect.ValueOf(domain.FullSet()[(t.Index()+1)%domain.SetSize]))
	case v.Kind() == reflect.Bool:
		v.SetBool(!v.Bool())
	case v.CanInt():
		v.SetInt(v.Int() + 1)
	case v.CanUint():
		v.SetUint(v.Uint() + 1)
	case v.Kind() == reflect.String:
		v.SetString(v.String() + "x")
	case v.Kind() == reflect.Pointer && v.IsNil():
		v.Set(reflect.New(v.Type().Elem()))
	case v.Kind() == reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(v.Elem())
		change(p.Elem())
		v.Set(p)
	case v.Kind() == reflect.Slice && v.Len() == 0:
		v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
	case v.Kind() == reflect.Slice:
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(c, v)
		change(c.Index(0))
		v.Set(c)
	case v.Kind() == reflect.Struct:
		change(v.Field(0))
	}
}
