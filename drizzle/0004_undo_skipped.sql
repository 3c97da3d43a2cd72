ALTER TABLE `project_changes` ADD `undo_skipped` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- Projects created, imported, duplicated, deleted or restored before this column existed are not undo steps either.
UPDATE `project_changes` SET `undo_skipped` = 1 WHERE json_extract(`command`, '$.type') IN ('project.create', 'project.import', 'project.duplicate') OR (json_extract(`command`, '$.type') IN ('card.delete', 'trash.restore') AND json_extract(`command`, '$.kind') = 'project');
