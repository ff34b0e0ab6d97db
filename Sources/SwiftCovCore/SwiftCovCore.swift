// The engine's stages in one import. Each stage is a target of its own that depends only on the
// stages below it (Package.swift), so an upward reference does not compile.
@_exported import SwiftCovAnalyses
@_exported import SwiftCovFormats
@_exported import SwiftCovInputs
@_exported import SwiftCovModel
@_exported import SwiftCovPlatform
@_exported import SwiftCovProducts
@_exported import SwiftCovWorkflow
