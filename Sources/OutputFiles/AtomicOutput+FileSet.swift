#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File sets: a new folder appears whole, by one rename of its temporary
/// folder; in an existing folder, files move in one by one, each by a
/// rename over its namesake. Never a move-aside of the old files: an
/// interruption at any instant leaves every earlier file or its complete
/// replacement in place.
extension AtomicOutput {
    static func openFileSet(
        _ target: String, set: FileSet, rules: ReplaceRules
    )
        throws(OutputError) -> (HeldTemporary, isInsideTarget: Bool)
    {
        let (parent, name) = FileSystem.split(target)
        let hasName = !name.isEmpty && name != "." && name != ".."
        let held: HeldTemporary
        let inside: Bool
        if let status = FileStatus.resolved(target) {
            guard status.isDirectory else {
                throw OutputError(
                    .notWritable, path: rules.display,
                    reason: status.isRegularFile
                        ? "it exists and is not a directory"
                        : FileProblem.wrongType(rules.display, type: status.type, expected: "a directory"))
            }
            try checkMembers(set.expectedMembers, of: set, in: target, rules: rules)
            HeldTemporary.sweep(in: target, stem: TemporaryName.insideFolderStem)
            if hasName { HeldTemporary.sweep(in: parent, stem: TemporaryName.stem(for: name)) }
            held = try reserveFolder(in: target, stem: TemporaryName.insideFolderStem, rules: rules)
            inside = true
        } else {
            if FileStatus.entry(target) != nil {
                throw OutputError(.notWritable, path: rules.display, reason: "it is a symbolic link to nothing")
            }
            guard hasName else { throw OutputError(.notWritable, path: rules.display, reason: "name a folder to write") }
            try checkLength(name: name, path: target, rules: rules)
            let stem = TemporaryName.stem(for: name)
            HeldTemporary.sweep(in: parent, stem: stem)
            held = try reserveFolder(in: parent, stem: stem, rules: rules)
            inside = false
        }
        for folder in set.folders {
            if let error = FileSystem.makeFolders(folder, under: held.path).errno {
                FileSystem.removeTree(held.path)
                held.release()
                throw OutputError(
                    .notWritable, path: rules.display,
                    reason: "cannot create the folder '\(folder)': \(FileProblem.describe(errno: error))")
            }
        }
        return (held, inside)
    }

    func commitFileSet(_ set: FileSet) throws(OutputError) {
        if !isInsideTarget {
            if FileStatus.entry(target) == nil, rename(held.path, target) == 0 { return }
            // The folder appeared while we wrote: join it file by file.
            guard FileStatus.resolved(target)?.isDirectory == true else {
                throw OutputError(.notWritable, path: displayPath, reason: "something that is not a folder appeared there")
            }
        }
        try moveMembersIn(set)
        FileSystem.removeTree(held.path)  // only its empty folders are left
    }

    /// Throws unless every member may be written into the existing folder
    /// `target` (see `ReplaceRules`), or when some exist and overwriting is
    /// not allowed.
    static func checkMembers(
        _ members: [String], of set: FileSet, in target: String,
        rules: ReplaceRules
    ) throws(OutputError) {
        for folder in folders(of: members, set: set) {
            if let status = FileStatus.resolved(FileSystem.join(target, folder)), !status.isDirectory {
                throw OutputError(
                    .notWritable, path: rules.display,
                    reason:
                        "'\(FileSystem.join(rules.display, folder))' is not a directory; this output needs a folder there")
            }
        }
        var existing: [String] = []
        for member in members {
            if try rules.check(FileSystem.join(target, member), shown: FileSystem.join(rules.display, member)) {
                existing.append(member)
            }
        }
        if !existing.isEmpty && !rules.overwrite { throw rules.membersExist(existing, of: set) }
    }

    private func moveMembersIn(_ set: FileSet) throws(OutputError) {
        let written = FileSystem.filesBelow(held.path)
        try Self.checkMembers(written, of: set, in: target, rules: rules)
        var createdFolders: [String] = []
        var added: [String] = []
        var replaced = 0
        // What was added can be taken back; what replaced a file cannot (and need not: it is complete).
        func undo() {
            for member in added.reversed() { rename(FileSystem.join(target, member), held.path + "/" + member) }
            for folder in createdFolders.reversed() { rmdir(folder) }
        }
        for folder in Self.folders(of: written, set: set) {
            let made = FileSystem.makeFolders(folder, under: target)
            createdFolders += made.created
            if let error = made.errno {
                undo()
                throw OutputError(
                    .writeFailed, path: displayPath,
                    reason:
                        "cannot create the folder '\(FileSystem.join(displayPath, folder))': \(FileProblem.describe(errno: error))")
            }
        }
        for member in FileSet.moveOrder(written, last: set.lastMembers) {
            let destination = FileSystem.join(target, member)
            let isNew = FileStatus.entry(destination) == nil
            if let error = Self.move(held.path + "/" + member, to: destination, replacing: rules.overwrite) {
                undo()
                if error == EEXIST { throw rules.membersExist([member], of: set) }
                let note = replaced == 0 ? "" : "; \(set.count(replaced)) had already been replaced by their new versions"
                throw OutputError(
                    .writeFailed, path: displayPath,
                    reason: "cannot move '\(member)' into place: \(FileProblem.describe(errno: error))\(note)")
            }
            if isNew { added.append(member) } else { replaced += 1 }
        }
        settleEarlierMembers(set, written: Set(written))
    }

    /// Removes the earlier members this output did not write when they are
    /// stale (`removeWhenOverwriting`), else names them in a warning.
    private func settleEarlierMembers(_ set: FileSet, written: Set<String>) {
        var earlier: [String] = []
        for folder in [""] + set.folders {
            for name in FileSystem.list(folder.isEmpty ? target : FileSystem.join(target, folder)) ?? [] {
                let member = folder.isEmpty ? name : folder + "/" + name
                guard set.isMember(member), !written.contains(member),
                    FileStatus.entry(FileSystem.join(target, member))?.isDirectory == false
                else { continue }
                earlier.append(member)
            }
        }
        if set.earlierMembers == .removeWhenOverwriting && rules.overwrite {
            earlier = earlier.filter { member in
                let path = FileSystem.join(target, member)
                return rules.inputs.contains(path) || unlink(path) != 0
            }
        }
        guard !earlier.isEmpty else { return }
        warnings.append(
            "'\(displayPath)' still holds \(set.count(earlier.count)) (\(FileSet.span(earlier))) "
                + "from an earlier render")
    }

    /// The set's folders and those its members are in, outermost first.
    private static func folders(of members: [String], set: FileSet) -> [String] {
        var folders = Set(set.folders)
        for member in members {
            var path = Substring(member)
            while let slash = path.lastIndex(of: "/") {
                path = path[..<slash]
                folders.insert(String(path))
            }
        }
        return folders.sorted()
    }

    private static func reserveFolder(
        in directory: String, stem: String, rules: ReplaceRules
    )
        throws(OutputError) -> HeldTemporary
    {
        switch HeldTemporary.create(in: directory, stem: stem, isFolder: true) {
        case .success(let held): return held
        case .failure(let error):
            throw OutputError(
                .notWritable, path: rules.display,
                reason: FileProblem.directoryProblem(directory, errno: error.code))
        }
    }
}
