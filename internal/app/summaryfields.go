package app

import (
	"reflect"
	"strings"
	"sync"
)

// SummaryFields returns the JSON names of every field a Summary can print,
// in the struct's order, whether or not this run prints it (omitempty):
// the names a game's counter may not take. They are read from the
// fields' tags, so that a counter called "record_error" collides in every
// run, not only in those that had one.
var SummaryFields = sync.OnceValue(func() []string {
	return jsonFields(reflect.TypeFor[Summary]())
})

// jsonFields returns the JSON names of t's exported fields, embedded
// structs' fields in their place, as encoding/json names them.
func jsonFields(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, name)
	}
	return out
}
