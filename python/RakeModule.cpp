//===- RakeModule.cpp - the rake._rake extension module ------------------===//
//
// Binds the C API (include/Rake-c/Rake.h) with pybind11: the compiler itself
// is reached only through C calls, so C++ exceptions never cross into it.
// python/rake/__init__.py builds the Python-facing classes on these.
//
//===----------------------------------------------------------------------===//

#include "Rake-c/Rake.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace py = pybind11;

namespace {

using Diagnostic = std::tuple<std::string, std::string, std::string>;
using Diagnostics = std::vector<Diagnostic>;

void collect(void *user, RakeSeverity severity, const char *location,
             const char *message) {
  static const char *names[] = {"error", "warning", "note", "remark"};
  static_cast<Diagnostics *>(user)->emplace_back(names[severity], location,
                                                 message);
}

void append(void *user, const char *data, size_t length) {
  static_cast<std::string *>(user)->append(data, length);
}

struct Context {
  std::shared_ptr<RakeContext> context{rakeContextCreate(),
                                       rakeContextDestroy};
};

struct Module {
  std::shared_ptr<RakeContext> context; // outlives the module
  std::unique_ptr<RakeModule, void (*)(RakeModule *)> module{
      nullptr, rakeModuleDestroy};
};

} // namespace

PYBIND11_MODULE(_rake, m) {
  m.doc() = "Rake GPU's C API (use the rake package)";
  m.def("compiler_revision", [] { return std::string(rakeCompilerRevision()); });
  m.def("api_version", [] { return rakeApiVersion(); });

  py::class_<Context>(m, "Context").def(py::init<>());

  py::class_<Module>(m, "Module")
      // (module or None, diagnostics)
      .def_static(
          "parse",
          [](Context &context, const std::string &text,
             const std::string &name) {
            Diagnostics diags;
            RakeModule *parsed =
                rakeModuleParse(context.context.get(), text.data(), text.size(),
                                name.c_str(), collect, &diags);
            std::unique_ptr<Module> result;
            if (parsed) {
              result = std::make_unique<Module>();
              result->context = context.context;
              result->module.reset(parsed);
            }
            return std::make_pair(std::move(result), diags);
          })
      .def("print",
           [](Module &self, int generic) {
             std::string text;
             rakeModulePrint(self.module.get(), generic, append, &text);
             return text;
           })
      // (ok, diagnostics)
      .def("run_pipeline",
           [](Module &self, const std::string &pipeline) {
             Diagnostics diags;
             int rc = rakeModuleRunPipeline(self.module.get(), pipeline.c_str(),
                                            collect, &diags);
             return std::make_pair(rc == 0, diags);
           })
      // (ok, steps, diagnostics)
      .def("apply_schedule",
           [](Module &self, const std::string &script, int steps) {
             Diagnostics diags;
             std::vector<std::string> applied;
             int rc = rakeModuleApplySchedule(
                 self.module.get(), script.data(), script.size(), steps,
                 [](void *user, const char *data, size_t size) {
                   static_cast<std::vector<std::string> *>(user)->emplace_back(
                       data, size);
                 },
                 &applied, collect, &diags);
             return std::make_tuple(rc == 0, applied, diags);
           })
      .def("check",
           [](Module &self) {
             Diagnostics diags;
             int rc = rakeModuleCheck(self.module.get(), collect, &diags);
             return std::make_pair(rc == 0, diags);
           })
      // (ptx or None, diagnostics)
      .def("to_ptx", [](Module &self, const std::string &chip) {
        Diagnostics diags;
        std::string ptx;
        int rc = rakeModuleToPtx(self.module.get(), chip.c_str(), append, &ptx,
                                 collect, &diags);
        return std::make_pair(rc == 0 ? py::object(py::str(ptx)) : py::none(),
                              diags);
      });
}
