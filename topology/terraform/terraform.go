// Package terraform reads the Terraform configuration of one module, and the local modules it
// calls, as far as a retry-topology checker needs: which resources of the retry-relevant Google
// Cloud types it declares, what their arguments say, where each argument is written, and which
// other resources an argument refers to.
//
// Files are parsed with hclsyntax; .tf.json files, in Terraform's JSON syntax, with HCL's JSON
// parser, and turned into the syntax tree the .tf file they stand for gives. Expressions are evaluated with an hcl.EvalContext in which
// input variables take the literal a calling module passes or their default and are unknown
// otherwise; locals, the outputs of followed modules and the written arguments of other
// resources are evaluated in turn, and a reference to a resource is also recorded by its address.
// Arguments the provider computes (id, uri, email…), data sources, count and each are unknown. A
// string with unknown parts is also given as a pattern in which each unknown part is Wildcard,
// e.g. "https://run.googleapis.com/v2/projects/*/locations/*/jobs/nightly:run"; in a pattern a
// computed id or uri of a reported type has the provider's shape, built from the written
// arguments ("projects/*/locations/us-central1/jobs/nightly").
//
// The package only reads: nothing is fetched or run, file() and templatefile() read only inside
// the given roots, remote module sources are not followed, and every file read is capped in size.
// What one read takes is bounded: how deeply an expression nests (checked before parsing), how
// many module instances calls make, and the weight of every value and the work of every
// evaluation (bounded before it runs, see weigh); past a bound the read is an *Error at the
// place.
package terraform

import "github.com/retrylint/retrylint/model"

// Wildcard stands for an unknown part of a string pattern.
const Wildcard = "*"

// DefaultMaxFileSize caps the size of one file read (configuration, file(), templatefile()).
const DefaultMaxFileSize = 4 << 20

// maxModuleDepth bounds how deep local module calls are followed.
const maxModuleDepth = 16

// maxModuleInstances bounds how many module instances one read makes: calls multiply through
// nested modules (twelve modules each calling the next three times make 3^11 instances), and
// each instance is read, kept and evaluated on its own.
const maxModuleInstances = 1000

// maxRunInstances bounds the module instances of the reads that share a budget.
const maxRunInstances = 20 * maxModuleInstances

// maxInstances bounds the resource instances one read lists for count and for_each; a
// resource that would pass it is listed once, its instances unknown.
const maxInstances = 10000

// maxConfigBytes bounds the configuration all module instances of one read hold together, a
// module's files counted once for each instance of it.
const maxConfigBytes = 32 << 20

// ResourceTypes lists the resource types Module.Resources reports, in no particular order.
var ResourceTypes = map[string]bool{
	"google_cloud_run_v2_job":         true,
	"google_cloud_run_v2_service":     true,
	"google_cloud_run_service":        true,
	"google_workflows_workflow":       true,
	"google_eventarc_trigger":         true,
	"google_pubsub_subscription":      true,
	"google_pubsub_topic":             true,
	"google_cloud_tasks_queue":        true,
	"google_cloud_scheduler_job":      true,
	"google_cloudfunctions_function":  true,
	"google_cloudfunctions2_function": true,
}

// Pos is a place in an input file: retrylint's one position type.
type Pos = model.Pos

// Error is an input that cannot be read as Terraform configuration, with the place it was found.
type Error struct {
	Pos Pos
	Msg string
}

// Error renders "file:line:col: msg".
func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Note is something the reader could not follow and assumed instead (a remote module, a file
// outside the roots); it is not an error.
type Note struct {
	Pos Pos
	Msg string
	// Module is the source of a module call not followed (a registry or
	// git module, a local directory that is missing or outside the roots);
	// "" for other notes.
	Module string
}

// Options control reading.
type Options struct {
	// Roots are the directories file(), templatefile() and local module sources may read from.
	// Empty: the directory of the module read.
	Roots []string
	// MaxFileSize caps one file (default DefaultMaxFileSize); a larger configuration file is an
	// error, a larger file() argument is unknown.
	MaxFileSize int64
	// Display turns an absolute path into the name positions carry (default: the path with "/").
	Display func(abs string) string
	// Budget is what the reads that share it may take together: the module and resource
	// instances and the evaluation work the caps bound. nil: this read's own.
	Budget *Budget
}

// Budget counts what reads have taken of what the caps allow; reads that share one are
// bounded together, as the modules of one run are.
type Budget struct {
	instances         int   // module instances made by the reads, their roots included
	resourceInstances int   // resource instances listed for count and for_each
	work              int64 // the work of the evaluations (see weigh)
}

// Module is what a module and the local modules it calls declare.
type Module struct {
	// Dir is the absolute directory of the module ("" for ParseBytes).
	Dir string
	// Files are the display names of the configuration files read, the called modules' included.
	Files []string
	// ModuleDirs are the absolute directories of the local modules followed.
	ModuleDirs []string
	// Resources are the resources of the types in ResourceTypes, in file and source order, each
	// module's own before those of the modules it calls.
	Resources []*Resource
	// Notes say what was not followed.
	Notes []Note

	byAddr map[string]*Resource
	st     *state
}

// Text returns the content of a file the read used, by display name: a configuration file or
// a file read by file() or templatefile(); nil for any other name.
func (m *Module) Text(name string) []byte {
	if f := m.st.files[name]; f != nil {
		return f.data
	}
	return nil
}

// ReadFiles lists the display names of the files file() and templatefile() have read so far
// (they are read when an expression that calls them is evaluated), sorted.
func (m *Module) ReadFiles() []string {
	var out []string
	for _, f := range m.st.reads {
		out = append(out, f.name)
	}
	return uniq(out)
}

// Err is the error of the first evaluation that would have passed the caps on what one read
// evaluates, at the expression: from then on every value is unknown, so what was read after
// it is not to be trusted. nil when none did.
func (m *Module) Err() error {
	if m.st.err == nil {
		return nil
	}
	return m.st.err
}

// Resource returns the resource with the given address (e.g. "google_cloud_run_v2_job.x" or
// "module.m.google_cloud_run_v2_job.x"), or nil.
func (m *Module) Resource(addr string) *Resource { return m.byAddr[addr] }

// Resource is one resource block.
type Resource struct {
	Block
	Type    string // e.g. "google_cloud_run_v2_job"
	Name    string // the block's name label
	Address string // "TYPE.NAME", prefixed by "module.M." inside a called module
	Module  string // "" for the root module, else e.g. "module.m"
	// Repeated: the resource has count or for_each not known statically, so it may stand for
	// several, or none; each.key, each.value and count.index are unknown.
	Repeated bool
	// Key is an instance's key, as Terraform writes it in the address ("[\"resize\"]", "[0]"),
	// when count or for_each is known: each instance is a Resource of its own, with each.key,
	// each.value and count.index known. "" otherwise.
	Key string
}

// NameArg returns the resource's `name` argument (nil when absent).
func (r *Resource) NameArg() *Value { return r.Attr("name") }
